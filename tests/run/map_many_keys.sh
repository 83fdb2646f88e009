#!/bin/bash
# 50,000 hist keys print and 150,000 keys clear in well under a second
# each (4 s allowed here, for a loaded machine): a hist entry was once
# found by a linear search among those read so far (40,000 keys: 12 s)
# and clear() once deleted while walking the map, each next-key call
# then starting again from the first bucket (80,000 keys: 5 s).  The
# counts must be exact too.
set -u
. "$SONDE_ROOT/tests/lib/trace.sh"
export BPFTRACE_MAP_KEYS_MAX=200000

# run N BODY: trace N distinct getpgid values; $secs: SIGINT to exit
run() {
	local t0
	N=$1
	shift
	trigger_start syscalls pgids $N
	tracer_start "$SONDE" -q -e "BEGIN { printf(\"ready\\n\"); }
	tracepoint:syscalls:sys_enter_getpgid /pid == $TRIG/ { $1 }"
	trigger_go
	t0=$EPOCHREALTIME
	tracer_stop
	secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
	stderr_clean
}

run 50000 '@h[args->pid] = hist(1); @n = count();'
awk -v s="$secs" 'BEGIN { exit !(s < 4) }' || die "hist: $N keys printed in $secs s"
# each key: a header, the [1] row, a blank line
got=$(awk -v n=$N '
	/^@h\[[0-9]+\]: $/ { k = substr($0, 4, 9) + 0; if (k < 100000000 || k >= 100000000 + n) bad++; h++; next }
	/^\[1\] +1 \|@+\|$/ { r++; next }
	/^@n: / { c = $2; next }
	/^(ready)?$/ { next }
	{ bad++ }
	END { print h + 0, r + 0, c + 0, bad + 0 }' "$work/out")
[[ $got == "$N $N $N 0" ]] || die "hist: histograms, rows, @n, bad lines: $got"

run 150000 '@c[args->pid] = count(); @n = count(); } END { clear(@c);'
awk -v s="$secs" 'BEGIN { exit !(s < 4) }' || die "clear: $N keys cleared in $secs s"
# the cleared map prints as an empty one: a blank line
expect "ready



@n: $N"
exit 0
