#!/bin/bash
# for ($kv : @map) (0.26): the entries as (key, value) tuples, several
# keys as a nested tuple, continue and break, the probe's variables
# read and written in the body, aggregations' values merged over the
# CPUs, text and -f json.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
run() {
	"$SONDE" -q --dialect=0.26 "$@" > out 2> err || die "sonde failed: $(cat err)"
	stderr_clean
}
NOPRINT='config = { print_maps_on_exit = 0 }'
run -e "$NOPRINT"'BEGIN { @map[16] = 32; for ($kv : @map) { print($kv); print($kv.0); print($kv.1); }
	@two[1, "a"] = 5; for ($kv : @two) { print($kv); printf("%d %s %d\n", $kv.0.0, $kv.0.1, $kv.1); }
	exit(); }'
expect "(16, 32)
16
32
((1, a), 5)
1 a 5"
run -e 'BEGIN { @m["foo"] = 1; @m["bar"] = 2; @m["baz"] = 3; $n = 0; $t = 0;
	for ($kv : @m) { if ($kv.0 == "bar") { continue; } $n++; $t += $kv.1; }
	printf("%d %d\n", $n, $t);
	$n = 0; for ($kv : @m) { $n++; break; } printf("%d\n", $n);
	$s = "none"; for ($kv : @m) { if ($kv.1 == 3) { $s = $kv.0; } } printf("%s\n", $s);
	for ($kv : @m) { @copy[$kv.0] = $kv.1 * 10; }
	clear(@m); exit(); }'
expect "2 4
1
baz


@copy[foo]: 10
@copy[bar]: 20
@copy[baz]: 30
"
# aggregations: the value merged over the CPUs, as at exit
run -e 'BEGIN { @c[16, 17] = count(); @c[16, 17] = count(); @s["x"] = sum(-4); @s["x"] = sum(10);
	@mn[1] = min(5); @mn[1] = min(-7); @mx[1] = max(5); @mx[1] = max(-7); @a[1] = avg(3); @a[1] = avg(8);
	for ($kv : @c) { print($kv); } for ($kv : @s) { print($kv); } for ($kv : @mn) { print($kv); }
	for ($kv : @mx) { print($kv); } for ($kv : @a) { print($kv); } exit(); }'
expect "((16, 17), 2)
(x, 6)
(1, -7)
(1, 5)
(1, 5)


@a[1]: 5

@c[16, 17]: 2
@mn[1]: -7
@mx[1]: 5
@s[x]: 6"
# counted on every CPU, merged in the loop as at exit
run -e 'profile:hz:997 { @c[1] = count(); @m[1] = max(cpu); } interval:ms:300 { exit(); }
	END { for ($kv : @c) { printf("loop %d\n", $kv.1); } for ($kv : @m) { printf("max %d\n", $kv.1); } }'
loop=$(sed -n 's/^loop //p' out)
atexit=$(sed -n 's/^@c\[1\]: //p' out)
[[ -n $loop && $loop == "$atexit" ]] || die "loop saw '$loop', exit printed '$atexit': $(cat out)"
max=$(sed -n 's/^max //p' out)
[[ $max == $(sed -n 's/^@m\[1\]: //p' out) ]] || die "max $max differs: $(cat out)"
# nested loops, return and exit() in a body, the context in a body
run -e "$NOPRINT"'BEGIN { @a[1] = 1; @a[2] = 2; @b["p"] = 100; $n = 0;
	for ($x : @a) { for ($y : @b) { $n += $x.1 * $y.1; } }
	printf("%d %s\n", $n, comm); }
	BEGIN { for ($x : @a) { if ($x.0 == 2) { printf("return\n"); return; } } printf("not reached\n"); }
	BEGIN { for ($x : @a) { for ($y : @b) { printf("in %s\n", probe); exit(); } } printf("not reached\n"); }'
expect "300 sonde
return
in begin"
run -f json -e "$NOPRINT"'BEGIN { @map[16] = 32; @t[1, "a"] = 5; for ($kv : @map) { print($kv); }
	for ($kv : @t) { print($kv); print($kv.0); } exit(); }'
expect '{"type": "value", "data": [16,32]}
{"type": "value", "data": [[1,"a"],5]}
{"type": "value", "data": [1,"a"]}'
