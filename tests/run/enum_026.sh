#!/bin/bash
# Values of an enum (bpftrace 0.26): the script's enums (named or not)
# and the kernel's (BTF) give their enumerators a type; (enum E)x casts
# to one.  Such a value prints as its enumerator's name in print(), map
# keys and values, tuples and printf's %s (the number when no
# enumerator has it), as the number with %d and in JSON.  --dialect=0.17
# prints the numbers.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
cat > e.bt <<'BT'
enum Foo { ONE = 1, TWO = 2, OTHER = 99999 };
enum { ANON = 333 };
BEGIN {
	printf("%d %s %d %s %d %s\n", ONE, ONE, TWO, TWO, OTHER, OTHER);
	$f = ANON;
	print($f);
	print((enum Foo)2);
	print((enum Foo)7);
	printf("%s %d\n", (enum Foo)7, (enum Foo)1);
	$r = SKB_DROP_REASON_NOT_SPECIFIED;
	printf("%d %s\n", $r, $r);
	print((enum tcp_ca_state)1);
	print((ONE, TWO + 0));
	@[TWO] = ONE;
	@c[(enum Foo)1] = count();
	exit();
}
BT
"$SONDE" --dialect=0.26 e.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "1 ONE 2 TWO 99999 OTHER
ANON
TWO
7
7 1
2 SKB_DROP_REASON_NOT_SPECIFIED
TCP_CA_Disorder
(ONE, 2)


@[TWO]: ONE
@c[ONE]: 1"
"$SONDE" --dialect=0.26 -q -f json e.bt > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect '{"type": "printf", "data": "1 ONE 2 TWO 99999 OTHER\n"}
{"type": "value", "data": 333}
{"type": "value", "data": 2}
{"type": "value", "data": 7}
{"type": "printf", "data": "7 1\n"}
{"type": "printf", "data": "2 SKB_DROP_REASON_NOT_SPECIFIED\n"}
{"type": "value", "data": 1}
{"type": "value", "data": [1,2]}
{"type": "map", "data": {"@": {"TWO": 1}}}
{"type": "map", "data": {"@c": {"ONE": 1}}}'
"$SONDE" --dialect=0.17 -e 'enum Foo { ONE = 1, TWO = 2 }; BEGIN { $x = TWO; print($x); @[ONE] = TWO; exit(); }' > out 2> err || die "sonde failed: $(cat err)"
stderr_clean
expect "Attaching 1 probe...
2


@[1]: 2"
rejects 'BEGIN { print((enum nosuch)1); }' "error[E_TYPE]: unknown type 'enum nosuch'"
exit 0
