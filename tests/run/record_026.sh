#!/bin/bash
# Records (bpftrace 0.26): (a=1, b="x") with field access by name,
# nested in tuples and records, as variables, map keys and map values;
# print() and the map printer write { .a = 1, .b = x }, JSON an object,
# printf's %s the text.  A record assigned in another field order lands
# in the first order's fields, its values evaluated in source order.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > r.bt <<'BT'
BEGIN {
	$v = 99;
	$t = (a=0, b=1, c="str", d=(5, 6), e=$v);
	printf("%d %d %s %d %d %d\n", $t.a, $t.b, $t.c, $t.d.0, $t.d.1, $t.e);
	$x = (x=1, y=2);
	$u = (a=0, b=1, c="str", d=(5, 6), e=$x);
	print($u);
	print($u.e.y);
	$o = (foo=1, bar=2);
	$o = (bar=3, foo=4);
	print($o);
	printf("%s\n", $o);
	@k[(n=1, s="ab")] = (m=(int8)-1, l="long string");
	@k[(n=2, s="c")] = (l="z", m=(int8)7);
	@s = (x=(uint32)5, y=(p=1, q=(2, 3)));
	@t[1, (a=1)] = 1;
	exit();
}
BT
"$SONDE" --dialect=0.26 r.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "0 1 str 5 6 99
{ .a = 0, .b = 1, .c = str, .d = (5, 6), .e = { .x = 1, .y = 2 } }
2
{ .foo = 4, .bar = 3 }
{ .foo = 4, .bar = 3 }


@k[{ .n = 1, .s = ab }]: { .m = -1, .l = long string }
@k[{ .n = 2, .s = c }]: { .m = 7, .l = z }
@s: { .x = 5, .y = { .p = 1, .q = (2, 3) } }
@t[1, { .a = 1 }]: 1"
"$SONDE" --dialect=0.26 -q -f json r.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect '{"type": "printf", "data": "0 1 str 5 6 99\n"}
{"type": "value", "data": {"a": 0, "b": 1, "c": "str", "d": [5,6], "e": {"x": 1, "y": 2}}}
{"type": "value", "data": 2}
{"type": "value", "data": {"foo": 4, "bar": 3}}
{"type": "printf", "data": "{ .foo = 4, .bar = 3 }\n"}
{"type": "map", "data": {"@k": {"{.n=1,.s=ab}": {"m": -1, "l": "long string"}, "{.n=2,.s=c}": {"m": 7, "l": "z"}}}}
{"type": "map", "data": {"@s": {"x": 5, "y": {"p": 1, "q": [2,3]}}}}
{"type": "map", "data": {"@t": {"1,{.a=1}": 1}}}'
# errors: a field that is not there, one named twice, other names
rejects 'BEGIN { $r = (a=1); print($r.b); }' "error[E_TYPE]: record (a=int64) has no field 'b'"
rejects 'BEGIN { $r = (a=1, a=2); }' "error[E_TYPE]: field 'a' appears twice in the record"
rejects 'BEGIN { $r = (a=1, b=2); $r = (a=1, c=2); }' \
	'error[E_TYPE]: $r holds (a=int64, b=int64) (from 1:9); cannot assign (a=int64, c=int64)'
exit 0
