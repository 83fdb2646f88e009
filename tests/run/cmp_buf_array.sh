#!/bin/bash
# buf() of an array member without a length reads the whole array, as
# bpftrace 0.17 does: 1-, 2- and 4-byte elements in memory order, in
# printf's %r, print(), and as a map key and value.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat structs -- '
struct trec {
	int id;
	char name[8];
	int arr[4];
	int mat[2][3];
	uint16_t u16s[3];
};
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/structs:take /pid == $1/ {
	$r = (struct trec *)arg0;
	printf("%r|%r\n", buf($r->arr), buf($r->u16s));
	print(buf($r->u16s));
	@k[buf($r->arr)] = count();
	@v = buf($r->mat);
}' @TRIG@
expect 'Attaching 2 probes...
ready
\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00|d\x00\xc8\x00\xff\xff
d\x00\xc8\x00\xff\xff


@k[\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\x04\x00\x00\x00]: 1
@v: \x0b\x00\x00\x00\x0c\x00\x00\x00\x0d\x00\x00\x00\x0e\x00\x00\x00\x0f\x00\x00\x00\x10\x00\x00\x00' "$work/sonde"
