/* Translators: a member of xlate <T *> (p) or xlate <T> (v) is the
 * translator's expression for it, with the input put in its place and
 * cast to the member's type; the translator is chosen by the input's
 * type (a cast's, a declared variable's); a whole translation assigned
 * to a struct variable sets each member (0 for those it leaves out);
 * a translation's value is its input's; output types may be typedefs. */
#pragma D option quiet

struct in1 { int a; char c; };
struct in2 { long big; };
typedef struct out { int x; char y; long z; } out_t;

translator out_t < struct in1 *p > {
	x = p->a * 2;
	y = ((struct in1 *)p)->c;
};
translator struct out < struct in2 v > {
	z = v.big + 1;
};

struct in1 g1;
struct in2 g2;
out_t whole;

BEGIN
{
	g1.a = 21;
	g1.c = 'q';
	g2.big = 41;
	this->p = (struct in1 *)&g1.a;
	printf("%d %c\n", xlate <out_t *> (this->p)->x, xlate <struct out *> (this->p)->y);
	printf("%d\n", xlate <struct out> (g2).z);
	whole.z = 7;
	whole = xlate <struct out> (g2);
	printf("%d %d %d\n", whole.x, whole.y, whole.z);
	printf("%d\n", xlate <out_t *> ((struct in1 *)&g1.a)->x);
	printf("%d\n", xlate <out_t *> (this->p) == this->p);
	exit(0);
}
