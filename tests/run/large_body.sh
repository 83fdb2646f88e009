#!/bin/bash
# Probe bodies of thousands of statements (tests/lib/bigscript.sh) load
# and compute what they say: split into global BPF subprograms (pieces)
# the verifier checks one at a time (docs/internals.md, "Long bodies").
# Before, 2,000 statements of the first shape failed ("the sequence of
# 8193 jumps is too complex").  Each shape's output is checked value by
# value against what the statements compute.
big=$SONDE_ROOT/tests/lib/bigscript.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "$*"; exit 1; }
run() {	# shape n: runs it, output in $work/out
	bash "$big" "$1" "$2" > "$work/$1.bt"
	timeout 120 "$SONDE" "$work/$1.bt" > "$work/out" 2> "$work/err" ||
		fail "$1 $2: exit $?: $(tail -5 "$work/err")"
	[[ -s $work/err ]] && fail "$1 $2: stderr: $(head -5 "$work/err")"
	return 0
}

# The issue's shape, 5,000 statements: split, and every line printed.
bash "$big" ifprint 5000 > "$work/if.bt"
"$SONDE" -d "$work/if.bt" | grep -q 'call pc+' || fail "ifprint 5000 not split"
run ifprint 5000
seq 6 5000 | sed 's/^/x /' > "$work/want"
grep '^x ' "$work/out" | diff "$work/want" - > /dev/null || fail "ifprint: x lines differ"
grep -qx '@m: 5000' "$work/out" || fail "ifprint: no @m: 5000"

run keyed 2000
[[ $(grep -c '^k ' "$work/out") == 1995 ]] || fail "keyed: $(grep -c '^k ' "$work/out") k lines"
grep -qx '@k\[1\]: 2000' "$work/out" || fail "keyed: no @k[1]: 2000"

run vars 3000
seq 3 3 3000 | sed 's/^/v /' > "$work/want"
grep '^v ' "$work/out" | diff "$work/want" - > /dev/null || fail "vars: v lines differ"
grep -qx '@v: 3000' "$work/out" || fail "vars: no @v: 3000"

run lookups 3000
grep -qx '@s: 73500' "$work/out" || fail "lookups: no @s: 73500"

# nested ifs with else: the same arithmetic in awk
run nested 3000
awk 'BEGIN { m = 3; for (i = 0; i < 3000; i++) if (m > i % 7) { m++; if (m % 4 == i % 3) k++; else j++ }
	printf "@j: %d\n@k: %d\n@m: %d\n", j, k, m }' > "$work/want"
grep '^@[jkm]:' "$work/out" | diff "$work/want" - || fail "nested: values differ"

run agg 1000
for k in 0 1 2 3 4 5 6 7 8 9; do
	grep -qx "@c\[$k\]: 100" "$work/out" || fail "agg: @c[$k] is not 100"
done
grep -qx '@s: 499500' "$work/out" || fail "agg: no @s: 499500"
grep -q '^\[512, 1K) *488 ' "$work/out" || fail "agg: hist [512, 1K) is not 488"

run strs 1000
for k in 0 1 2 3 4; do
	grep -qx "@s\[sonde, $k\]: 200" "$work/out" || fail "strs: @s[sonde, $k] is not 200"
done
[[ $(grep -cx 'sonde [12]00' "$work/out") == 10 ]] || fail "strs: printf lines"

# A variable of every piece ($t, in scratch), a loop in one piece over
# its own variable (on that piece's stack: the verifier bounds it), and
# exit() in a piece's middle: nothing after it runs.
{
	echo 'BEGIN { $t = 0;'
	for ((i = 0; i < 3000; i++)); do echo '	$t += 1; @m = $t; if (@m > 1000000) { printf("no\n"); }'; done
	echo '	$i = 0; while ($i < 5) { $i++; @w += $i; }'
	echo '	@t = $t; if ($t == 3000) { exit(); }'
	for ((i = 0; i < 300; i++)); do echo '	@after += 1; if (@after > 1000000) { printf("no\n"); }'; done
	echo '}'
} > "$work/mixed.bt"
"$SONDE" -d "$work/mixed.bt" | grep -q 'call pc+' || fail "mixed not split"
timeout 120 "$SONDE" "$work/mixed.bt" > "$work/out" 2> "$work/err" || fail "mixed: $(tail -3 "$work/err")"
printf '@m: 3000\n@t: 3000\n@w: 15\n' > "$work/want"
grep '^@' "$work/out" | diff "$work/want" - || fail "mixed: values differ"

# A tracepoint's long body reads its context (args, pid) in every piece.
. "$SONDE_ROOT/tests/lib/trace.sh"
export TRIG_COMM=lb-$$
body=$(for ((i = 0; i < 300; i++)); do echo "@n += args->__syscall_nr == $NR_getppid; if (@n % 7 == 0) { @p[pid == \$1] = count(); }"; done)
trace syscalls getppid 7 -- "$SONDE" -e "BEGIN { printf(\"ready\\n\"); }
tracepoint:syscalls:sys_enter_getppid /pid == \$1/ { $body }" @TRIG@
expect "Attaching 2 probes...
ready


@n: 2100
@p[1]: 300"
stderr_clean
