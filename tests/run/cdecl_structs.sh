#!/bin/bash
# C declarations as clang accepts them, laid out as C lays them out and
# read from tests/progs/structs.c: typedefs (of a struct defined in
# place, of an integer), <stdint.h> names, C's integer words in any
# order, qualifiers, constant expressions in sizes and enumerators,
# multi-dimensional arrays, anonymous unions and structs, several
# bitfields on a line, an enum member, function pointers, a ';' missing
# before '}' and after the definition, a flexible array member, and a
# struct named like a kernel type replacing it.
set -u
PROGS=${SONDE_PROGS:-$SONDE_ROOT/build/progs}
prog=$PROGS/structs
[[ -x $prog ]] || { echo "$prog not built (make progs)"; exit 1; }
script='typedef unsigned short u16_t;
typedef struct point { int x; short y } point_t;
enum color { RED = 1, GREEN = 1 << 1, BLUE = GREEN * 2, };
struct inode { int only; }
struct rec {
	signed int id;
	char name[8];
	int arr[2 * 2];
	int mat[2][3];
	u16_t u16s[3];
	point_t at;
	struct point *where;
	union { int word; unsigned char bytes[4]; };
	struct { int lo, hi; } range;
	const char *label;
	long unsigned int big;
	long long neg;
	short f1 : 4, f2 : 8, f3 : 3;
	enum color color;
	char tag[4];
	int (*fn)(int);
	volatile int *const ints;
	struct point pts[2]
};
struct flex { int n; char data[]; };
uprobe:'"$prog"':take {
	$r = (struct rec *)arg0;
	printf("%d %s %d %d %d\n", $r->id, $r->name, $r->arr[3],
	       $r->mat[1][0], $r->u16s[2]);
	printf("%d %d %d %x %x %d %d\n", $r->at.x, $r->at.y, $r->where->x,
	       $r->word, $r->bytes[0], $r->range.lo, $r->range.hi);
	printf("%s %ld %d %d %d %d %d %s\n", str($r->label), $r->big, $r->neg,
	       $r->f1, $r->f2, $r->f3, $r->color, $r->tag);
	printf("%d %d %d %d %d\n", $r->color == BLUE, sizeof(struct rec),
	       sizeof(point_t), sizeof(struct inode), sizeof(struct flex));
	printf("%d %d\n", *$r->ints, $r->ints[5]);
	print($r->pts);
	exit();
}'
want='Attaching 1 probe...
5 hello 4 14 65535
9 -3 42 41424344 44 -1 99
a label 123456789012 -42 3 100 2 4 abcd
1 168 8 4 4
10 60
[{ .x = 1, .y = 2 },{ .x = 3, .y = 4 }]'
got=$("$SONDE" -e "$script" -c "$prog" 2>&1)
got=${got%$'\n\n'}
if [[ $got != "$want" ]]; then
	echo "got:"; echo "$got"; echo "want:"; echo "$want"
	exit 1
fi
