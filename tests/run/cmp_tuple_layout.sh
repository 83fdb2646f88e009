#!/bin/bash
# Tuples are laid out as bpftrace lays them out: integers keep their
# width and C alignment (sizeof((int8)1, (int16)1, (int32)1) is 8),
# structs and arrays their alignment; values read back, print and
# store in maps unchanged, widened when a map's tuples disagree.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat structs -- '
struct tpoint { int x; short y; };
struct trec { int id; char name[8]; int arr[4]; };
BEGIN { printf("ready\n"); }
uprobe:'"$PROGS"'/structs:take /pid == $1/ {
	$r = (struct trec *)arg0;
	$a = ((int8)1, (int64)2, (int8)3, (int64)4);
	$b = ((int8)-1, (int16)-2, (int32)-3);
	$c = ((int32)1, (int16)2, (int8)3);
	$n = ((int8)-5, ((int16)-6, (uint8)250));
	$s = ((int32)7, $r->arr);
	printf("%d %d %d %d %d %d\n", sizeof($a), sizeof($b), sizeof($c),
	       sizeof($n), sizeof($s), sizeof(((int8)1, (int64)2)));
	print($a); print($b); print($c); print($n); print($s);
	printf("%d %d %d %d %d\n", $b.0, $b.1, $b.2, $n.1.0, $n.1.1);
	@b = $b;
	@c = $c;
	@n[(int16)3, (uint8)4] = $n;
	@k[(int8)-1, (int32)2, "x"] = count();
}' @TRIG@
expect "Attaching 2 probes...
ready
32 8 8 6 20 16
(1, 2, 3, 4)
(-1, -2, -3)
(1, 2, 3)
(-5, (-6, 250))
(7, [1,2,3,4])
-1 -2 -3 -6 250


@b: (-1, -2, -3)
@c: (1, 2, 3)
@k[-1, 2, x]: 1
@n[3, 4]: (-5, (-6, 250))"
