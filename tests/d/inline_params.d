/* Inlines with parameters: f[a, b] is the inline's expression with
 * its parameters given; an inline may be a translation, read through
 * a member. */
#pragma D option quiet

struct s { int s_x; };

translator struct s < int T > { s_x = T + 1; };

inline int add[int x, int y] = x + y;
inline int twice[int x] = x * 2;
inline struct s one = xlate < struct s > (41);
inline int next[int x] = (xlate < struct s > (x)).s_x;

BEGIN
{
	printf("%d %d %d %d %d\n", add[10, 20], twice[add[1, 2]], one.s_x,
	    next[123], add[pid, 1] == pid + 1);
	exit(0);
}
