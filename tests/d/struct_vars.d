/* Variables declared with a struct, union, typedef'd struct, pointer
 * or enum type: members stored and read in globals, thread-locals and
 * clause-locals, whole values copied, a union as an array's key,
 * bitfields signed and unsigned, sizeof of declared variables. */
#pragma D option quiet

struct point {
	int x, y;
};

struct bits {
	int s : 4;
	unsigned int u : 4;
	long wide : 40;
} b;

typedef struct {
	char c;
	long l;
} pair_t;

union u {
	int i;
	char c;
};

struct point g, copy;
self struct point ts;
this struct point lp;
struct line {
	struct point from, to;
} ln;
pair_t pr;
union u k1, k2;
int *ip;
char small;
enum dir { UP, DOWN } d;

BEGIN
{
	g.x = 3;
	g.y = g.x + 4;
	g.y += 10;
	copy = g;
	g.x = 99;
	self->ts.x = 5;
	this->lp.y = 6;
	ln.from = copy;
	ln.to.x = -1;
	pr.c = 'z';
	pr.l = 1234567890123;
	printf("g %d %d copy %d %d\n", g.x, g.y, copy.x, copy.y);
	printf("ts %d %d lp %d %d\n", self->ts.x, self->ts.y, this->lp.x, this->lp.y);
	printf("line %d %d -> %d %d\n", ln.from.x, ln.from.y, ln.to.x, ln.to.y);
	printf("pair %c %d\n", pr.c, pr.l);

	b.s = 7;
	b.u = 15;
	b.wide = -2;
	printf("bits %d %d %d\n", b.s, b.u, b.wide);
	b.s = 9;
	printf("bits %d %d %d\n", b.s, b.u, b.wide);

	k1.i = 0x4141;
	k1.c = 'B';
	k2.i = 0x4142;
	a[k1] = 1;
	a[k2] = 2;
	printf("union keys %d %d\n", a[k1], a[k2]);

	printf("sizes %d %d %d %d %d\n", sizeof(small), sizeof(g), sizeof(ln),
	    sizeof(pr), sizeof(d));
	printf("ip %d %d\n", (int)ip, (int)(ip + 2));
	exit(0);
}
