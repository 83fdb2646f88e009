#!/bin/bash
# if/else as a value (today's bpftrace): nested, chained with else if,
# and as the last item of a block expression; without else, an error.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q --dialect=0.26 -e 'begin { let $x = 1; let $y = 0;
	print(if ($x) { if ($y) { 1 } else { 2 } } else { 3 });
	$s = if ($x > 5) { "big" } else if ($x > 0) { "small" } else { "none" };
	print($s);
	$v = { let $t = 5; if ($t > 2) { $t * 2 } else { 0 } };
	print($v); }' > out 2> err || die "exit $?: $(cat err)"
expect "2
small
10

"
"$SONDE" -q --dialect=0.26 -e 'begin { $a = if (1) { 2 }; }' > out 2> err && die "no else accepted"
grep -q "error\[E_SYNTAX\]: 'else' expected: an 'if' used as a value needs both branches" err || die "no else: $(cat err)"
"$SONDE" -q --dialect=0.26 -e 'begin { $a = { if (1) { 2 } }; }' > out 2> err && die "no else in a block accepted"
grep -q "error\[E_SYNTAX\]: an 'if' used as a value needs an 'else'" err || die "no else in a block: $(cat err)"
echo ok
