#!/bin/bash
# bpftrace 0.26's bool: true and false, (bool) casts of integers,
# strings and pointers, comparisons, !, && and || are bools; they print
# as true and false in print(), map keys and values, tuples and printf's
# %s, as 1 and 0 with %d and after a cast to an integer, and as JSON's
# true and false.  Under --dialect=0.17 the same script prints 1 and 0.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > b.bt <<'BT'
BEGIN {
	print((true, false));
	$b = true; $c = false; print(($b, $c));
	print(((bool)1, (bool)0, (bool)-5));
	print(((bool)"hello", (bool)""));
	$s = "x"; $e = ""; print(((bool)$s, (bool)$e));
	$p = (int64 *)0; $q = (int64 *)1; print(((bool)$q, (bool)$p));
	print(((int64)true, (int64)false));
	$x = 0; print((!0, !10, !$x));
	$a = 100000; $z = 0; $k = $a > $z; $d = $a && $z; $o = $k || $d;
	print(($k, $d, $o, (uint64)$k));
	print(1 == 1);
	print($a != 100000);
	printf("%d %s %d %s|%5s|\n", true, true, 1 == 2, 1 == 2, false);
	$t = $a > 5 ? true : false; print($t);
	if (true) { printf("if true\n"); }
	if (false) { printf("if false\n"); }
	@m[true] = false;
	@n[false, 1, true] = 1; @n[true, (int32)2, false] = 2;
	@h[1] = 1; @hk = has_key(@h, 1); @hn = has_key(@h, 2);
	@sc = strcontains("abc", "b");
	exit();
}
BT
"$SONDE" --dialect=0.26 b.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "(true, false)
(true, false)
(true, false, true)
(true, false)
(true, false)
(true, false)
(1, 0)
(true, false, true)
(true, false, true, 1)
true
false
1 true 0 false|false|
true
if true


@h[1]: 1
@hk: true
@hn: false
@m[true]: false
@n[false, 1, true]: 1
@n[true, 2, false]: 2
@sc: true"
"$SONDE" --dialect=0.26 -q -f json b.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect '{"type": "value", "data": [true,false]}
{"type": "value", "data": [true,false]}
{"type": "value", "data": [true,false,true]}
{"type": "value", "data": [true,false]}
{"type": "value", "data": [true,false]}
{"type": "value", "data": [true,false]}
{"type": "value", "data": [1,0]}
{"type": "value", "data": [true,false,true]}
{"type": "value", "data": [true,false,true,1]}
{"type": "value", "data": true}
{"type": "value", "data": false}
{"type": "printf", "data": "1 true 0 false|false|\n"}
{"type": "value", "data": true}
{"type": "printf", "data": "if true\n"}
{"type": "map", "data": {"@h": {"1": 1}}}
{"type": "map", "data": {"@hk": true}}
{"type": "map", "data": {"@hn": false}}
{"type": "map", "data": {"@m": {"true": false}}}
{"type": "map", "data": {"@n": {"false,1,true": 1, "true,2,false": 2}}}
{"type": "map", "data": {"@sc": true}}'
# 0.17: the literals are 1 and 0, and so are comparisons
"$SONDE" --dialect=0.17 -e 'BEGIN { print((true, false, 1 == 1, !5)); @m[true] = 2 > 1; exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "Attaching 1 probe...
(1, 0, 1, 0)


@m[1]: 1"
# a bool holds only bools
rejects 'BEGIN { $b = true; $b = 5; }' 'error[E_TYPE]: $b holds bool (from 1:9); cannot assign int64'
exit 0
