/* dwarfargs.c - functions whose parameters the tests of uprobes'
 * args.NAME read by name and type from DWARF (make progs builds it with
 * -g; tests/run/uprobe_dwarf_args.sh builds it again at other
 * optimisation levels and with clang): integers of every width and
 * sign, a string, a typedef, an enum and a _Bool; a pointer to a struct
 * holding a nested struct, a char array, bitfields, an anonymous union
 * and a pointer to its own type; structs by value in one register, in
 * two, and on the stack; arguments past the sixth, on the stack;
 * doubles and a float, which take SSE registers and leave the integer
 * ones to the others; a large struct returned through a hidden first
 * pointer; an array of strings.  Every string is written before the
 * calls, so that its page is in memory (BPF cannot fault one in).
 *
 * usage: dwarfargs [wait]
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "wait.h"

/* no clones, no propagated constants: each function keeps its
 * parameters where the calling convention puts them (clang has no
 * noipa; its noinline alone keeps external functions' signatures) */
#ifdef __clang__
#define NOIPA __attribute__((noinline))
#else
#define NOIPA __attribute__((noipa))
#endif

enum color { RED = 1, GREEN = 5 };
typedef unsigned long ulong_t;

struct point {
	int x;
	int y;
};

struct pair {			/* 16 bytes: two registers */
	long a;
	long b;
};

struct big {			/* 32 bytes: on the stack */
	long v[3];
	char tag[8];
};

struct node {
	long val;
	struct node *next;
	char name[8];
	struct point p;
	unsigned flag : 3, level : 5;
	union {
		int i;
		unsigned char b[4];
	};
};

static char text[16], one[8], two[8];

NOIPA long ints(signed char a, unsigned char b, short c,
		unsigned short d, int e, unsigned int f)
{
	return a + b + c + d + e + f;
}

NOIPA long longs(long g, unsigned long h, const char *s,
		 ulong_t u, enum color col, bool ok)
{
	return g + (long)h + s[0] + (long)u + col + ok;
}

NOIPA long values(struct node *nd, struct point pt, struct pair pr,
		  struct big bg, long seventh, int eighth)
{
	return nd->val + pt.y + pr.a + pr.b + bg.v[2] + seventh + eighth;
}

NOIPA long many(long a1, long a2, long a3, long a4, long a5,
		long a6, long a7, char a8, const char *a9)
{
	return a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9[0];
}

NOIPA double mixed(double x, int y, float z, long w)
{
	return x + y + z + w;
}

NOIPA struct big ret_big(int k, long m)
{
	struct big b = { { k, m, k + m }, "ret" };

	return b;
}

NOIPA int strings(int n, char **list)
{
	return n + list[0][0];
}

int main(int argc, char **argv)
{
	struct node n2 = { 2, NULL, "two", { 3, 4 }, 1, 2, { 0x01020304 } };
	struct node n1 = { 1, &n2, "one", { 5, 6 }, 7, 31, { -1 } };
	struct point pt = { 100, -200 };
	struct pair pr = { -3000000000L, 4000000000L };
	struct big bg = { { 7, 8, 9 }, "bigtag" };
	char *list[3] = { one, two, NULL };
	long sum;
	int i = 1;

	wait_maybe(argc, argv, &i);
	strcpy(text, "hello");
	strcpy(one, "one");
	strcpy(two, "two");
	sum = ints(-1, 255, -300, 60000, -70000, 4000000000u);
	sum += longs(-5000000000L, 18000000000000000000ul, text, 123456789012ul,
		     GREEN, true);
	sum += values(&n1, pt, pr, bg, 77, -88);
	sum += many(1, 2, 3, 4, 5, 6, 7, 'x', text);
	sum += (long)mixed(1.5, 3, 2.5f, 4);
	sum += ret_big(10, 20).v[2];
	sum += strings(2, list);
	return sum ? 0 : 1;
}
