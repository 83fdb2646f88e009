#!/bin/bash
# Jumps further than 32,767 instructions go through islands (bpf/asm.c):
# a predicate over 40,000 statements, and an if around 10,000
# assignments in one statement (unroll), which no split can shorten,
# both load and run.  Each used to fail with "a jump spans N instructions".
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
{
	printf 'BEGIN /pid/ {'
	printf ' @x = 1;%.0s' $(seq 40000)
	printf ' @y = 2; exit(); }\n'
} > pred.bt
"$SONDE" pred.bt > out 2> err || die "sonde failed: $(head -c 2000 err)"
expect "Attaching 1 probe...


@x: 1
@y: 2"
cat > unroll.bt <<'BT'
BEGIN {
	$i = 1;
	if (pid > 0) {
		unroll(100) {
			unroll(100) {
				$i = ($i * 3 + 7) & 0xfffff;
			}
		}
	}
	printf("%d\n", $i);
	exit();
}
BT
"$SONDE" unroll.bt > out 2> err || die "sonde failed: $(head -c 2000 err)"
expect "Attaching 1 probe...
954017

"
exit 0
