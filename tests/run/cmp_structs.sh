#!/bin/bash
# Arrays and struct values print as bpftrace 0.17 prints them: members
# of array type (one and two dimensions, 1- to 4-byte elements, of
# structs), indexed with constants, struct members and whole structs,
# as print() values, map values, map keys and tuple elements; char
# arrays without a NUL whole.  The script's struct mirrors
# tests/progs/structs.c without its anonymous members (bpftrace 0.17
# crashes on them; tests/run/cdecl_structs.sh covers them).
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat structs -- '
struct tpoint { int x; short y; };
struct trec {
	int id;
	char name[8];
	int arr[4];
	int mat[2][3];
	uint16_t u16s[3];
	struct tpoint at;
	struct tpoint *where;
	int word;
	int lo; int hi;
	const char *label;
	unsigned long big;
	long long neg;
	short f1 : 4, f2 : 8, f3 : 3;
	int color;
	char tag[4];
	void *fn;
	int *ints;
	struct tpoint pts[2];
};
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/structs:take /pid == $1/ {
	$r = (struct trec *)arg0;
	print($r->arr); print($r->mat); print($r->u16s); print($r->at);
	print($r->pts); print($r->mat[1]); print($r->pts[1]);
	printf("%d %d %d %d %d %s %s %d\n", $r->arr[3], $r->mat[1][2],
	       $r->u16s[2], $r->pts[1].y, $r->f2, $r->tag, $r->name, $r->neg);
	@a = $r->arr;
	@s = $r->at;
	@k[$r->mat] = $r->u16s;
	@ks[$r->at, 2] = 3;
	@t = ($r->at, $r->arr, 5);
	@tag[$r->tag] = $r->id;
}' @TRIG@
expect "Attaching 2 probes...
ready
[1,2,3,4]
[[11,12,13],[14,15,16]]
[100,200,65535]
{ .x = 9, .y = -3 }
[{ .x = 1, .y = 2 },{ .x = 3, .y = 4 }]
[14,15,16]
{ .x = 3, .y = 4 }
4 16 65535 4 100 abcd hello -42


@a: [1,2,3,4]
@k[[[11,12,13],[14,15,16]]]: [100,200,65535]
@ks[{.x=9,.y=-3}, 2]: 3
@s: { .x = 9, .y = -3 }
@t: ({ .x = 9, .y = -3 }, [1,2,3,4], 5)
@tag[abcd]: 5" "$work/sonde"
