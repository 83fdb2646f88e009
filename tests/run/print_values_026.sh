#!/bin/bash
# bpftrace 0.26 prints pointers in hex (JSON: numbers), compares
# tuples and records of one type with == and !=, and reads a tuple's
# element by a constant index ($t[1] is $t.1), (1,) is a tuple of one,
# and JSON writes integers beyond a double's 2^53 as strings; --dialect=0.17 prints
# pointer values in decimal.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > p.bt <<'BT'
BEGIN {
	$p = (int16 *)0x32;
	print($p);
	@[$p] = $p;
	@t = ($p, 1);
	$a = (1, "ab"); $b = (1, "ab"); $c = (2, "ab");
	print(($a == $b, $a != $b, $a == $c, $a == (1, "ab")));
	$r = (x=1, y="s"); $s = (x=1, y="s");
	print(($r == $s, $r != $s));
	$n = (3, 4, $a);
	print(($n[0], $n[2][1], (1, "hello")[1 - 1]));
	print((1,));
	print(((uint64)-1, 1 << 53, (1 << 53) + 1, -5));
	exit();
}
BT
"$SONDE" --dialect=0.26 p.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "0x32
(true, false, false, true)
(true, false)
(3, ab, 1)
(1)
(18446744073709551615, 9007199254740992, 9007199254740993, -5)


@[0x32]: 0x32
@t: (0x32, 1)"
"$SONDE" --dialect=0.26 -q -f json p.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect '{"type": "value", "data": 50}
{"type": "value", "data": [true,false,false,true]}
{"type": "value", "data": [true,false]}
{"type": "value", "data": [3,"ab",1]}
{"type": "value", "data": [1]}
{"type": "value", "data": ["18446744073709551615",9007199254740992,"9007199254740993",-5]}
{"type": "map", "data": {"@": {"0x32": 50}}}
{"type": "map", "data": {"@t": [50,1]}}'
"$SONDE" --dialect=0.17 -e 'BEGIN { $p = (int16 *)0x32; print($p); @[$p] = $p; exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "Attaching 1 probe...
50


@[0x32]: 50"
rejects 'BEGIN { $a = (1, "ab"); $b = (1, 2); print($a == $b); }' \
	"error[E_TYPE]: operator '==' cannot take (int64, string[3]) and (int64, int64)"
exit 0
