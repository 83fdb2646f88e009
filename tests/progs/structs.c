/* structs.c - C data for the tests of structs, arrays and pointers in
 * scripts: one call of take() with a struct holding arrays (one and two
 * dimensions, of several element sizes), a nested struct, an anonymous
 * union and struct, bitfields, an enum, pointers and a function
 * pointer, and an array of ints.
 *
 * usage: structs [wait]
 */
#include <stdint.h>
#include <string.h>

#include "wait.h"

enum color { RED = 1, GREEN = 2, BLUE = 4 };

struct point {
	int x;
	short y;
};

struct rec {
	int id;
	char name[8];
	int arr[4];
	int mat[2][3];
	uint16_t u16s[3];
	struct point at;
	struct point *where;
	union {
		int word;
		unsigned char bytes[4];
	};
	struct {
		int lo, hi;
	} range;
	const char *label;
	unsigned long big;
	long long neg;
	short f1 : 4, f2 : 8, f3 : 3;
	enum color color;
	char tag[4];		/* "abcd", no NUL */
	int (*fn)(int);
	int *ints;
	struct point pts[2];
};

static struct point origin = { 42, 7 };
static int ints[6] = { 10, 20, 30, 40, 50, 60 };

static int twice(int v)
{
	return 2 * v;
}

__attribute__((noipa)) long take(struct rec *r, int *ip)
{
	return r->id + *ip;
}

int main(int argc, char **argv)
{
	struct rec r;
	int i = 1;

	wait_maybe(argc, argv, &i);
	memset(&r, 0, sizeof(r));
	r.id = 5;
	strcpy(r.name, "hello");
	for (int k = 0; k < 4; k++)
		r.arr[k] = k + 1;
	for (int k = 0; k < 6; k++)
		r.mat[k / 3][k % 3] = 11 + k;
	r.u16s[0] = 100;
	r.u16s[1] = 200;
	r.u16s[2] = 65535;
	r.at.x = 9;
	r.at.y = -3;
	r.where = &origin;
	r.word = 0x41424344;
	r.range.lo = -1;
	r.range.hi = 99;
	r.label = "a label";
	/* touch it: a string BPF reads must be in memory, and a page of
	 * constants nothing read is not */
	if (((const volatile char *)r.label)[0] != 'a')
		return 2;
	r.big = 123456789012;
	r.neg = -42;
	r.f1 = 3;
	r.f2 = 100;
	r.f3 = 2;
	r.color = BLUE;
	memcpy(r.tag, "abcd", 4);
	r.fn = twice;
	r.ints = ints;
	r.pts[0].x = 1;
	r.pts[0].y = 2;
	r.pts[1].x = 3;
	r.pts[1].y = 4;
	return take(&r, ints) == 15 ? 0 : 1;
}
