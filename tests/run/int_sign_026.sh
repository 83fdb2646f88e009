#!/bin/bash
# 0.26 merges the integer types stored in one variable, map key or map
# value (language.md, "Data Types"): a non-negative literal takes the
# other's sign, unsigned meets signed in a signed type wide enough, and
# a signed value meeting a uint64 makes the place int64 (a variable's
# with a warning).
# A difference is signed, and so is a sum (product ...) that mixes
# signs.  Under --dialect=0.17 the first type's sign wins and
# arithmetic follows C.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > s.bt <<'BT'
BEGIN {
	$a = (uint64)1; $a = 2; $a = $a - 3; print($a);
	$l = 1; $l = (uint64)-1; print($l);
	$u = (uint8)200; $u = (int8)-1; print($u);
	$v = (uint8)200; print($v);
	$c = (uint64)1; $d = (int64)-1; $c = $d; print($c);
	@k[(uint32)1] = 1; @k[-1] = 2;
	@m = (uint64)5; @m = -1;
	@t[(uint8)1, 2] = (uint16)3; @t[(int8)-1, 2] = (int8)-4;
	print(((uint64)1 - (uint64)2, (uint64)1 + (-2), (uint64)5 + 3, 2 + 3));
	exit();
}
BT
"$SONDE" --dialect=0.26 s.bt > out 2> err || die "sonde failed: $(cat err)"
expect "-1
18446744073709551615
-1
200
-1
(-1, -1, 8, 5)


@k[1]: 1
@k[-1]: 2
@m: -1
@t[-1, 2]: -4
@t[1, 2]: 3"
grep -c 'warning: a signed and an unsigned 64-bit integer meet here' err > n
expect 2 n
"$SONDE" --dialect=0.17 -e 'BEGIN { $l = 1; $l = (uint64)-1; print($l); $c = (uint64)1; $d = (int64)-1; $c = $d; print($c); @m = (uint64)5; @m = -1; exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "Attaching 1 probe...
-1
18446744073709551615


@m: 18446744073709551615"
exit 0
