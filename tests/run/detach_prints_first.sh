#!/bin/bash
# The maps print as soon as the probes are detached, before the slow
# part of the teardown: closing a uprobe's perf event waits about 85 ms
# in the kernel, one after the other, so the 79 uprobes of libc's str*
# take some 7 s to go, but their programs stop when their links close,
# a fraction of a second.  sonde once closed both together and printed
# 7 s after the traced process had gone; the results must now come
# within 3 s, and the exit after them.  Likewise -c's command is
# stopped when the programs stop.
set -u
. "$SONDE_ROOT/tests/lib/trace.sh"
trigger_start syscalls getppid 1
tracer_start "$SONDE" -p "$TRIG" -e 'BEGIN { printf("ready\n"); }
	uprobe:libc:str* { @[probe] = count(); }'
n=$(sed -n 's/^Attaching \([0-9]*\) probes\.\.\.$/\1/p' "$work/out")
(( n > 40 )) || die "expected the str* functions of libc, got $n probes"
t0=$EPOCHREALTIME
trigger_go
# -p's process is gone: sonde ends; the maps end with a blank line
wait_for "$work/out" '^$' || die "no results: $(cat "$work/out" "$work/err")"
secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
wait "$TRACER" || die "sonde failed: $(cat "$work/err")"
TRACER=
awk -v s="$secs" 'BEGIN { exit !(s < 3) }' ||
	die "the results came $secs s after the process exited"
stderr_clean

# -c's command, still running when the script ends, is stopped then
# too, not once the perf events are closed: gone within 3 s of exit()
# (the interval), while sonde needs some 7 s more to exit.
"$SONDE" -c "$PROGS/syscalls sleep 1 60000000" -e 'BEGIN { printf("cpid %d\n", cpid); }
	uprobe:libc:str* { @[probe] = count(); } interval:ms:500 { exit(); }' \
	> "$work/out" 2> "$work/err" & TRACER=$!
wait_for "$work/out" '^cpid [0-9]+$' || die "no cpid: $(cat "$work/out" "$work/err")"
cpid=$(sed -n 's/^cpid //p' "$work/out")
t0=$EPOCHREALTIME
for ((i = 0; i < 200; i++)); do
	kill -0 "$cpid" 2>/dev/null || break
	sleep 0.05
done
secs=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
kill -0 "$cpid" 2>/dev/null && die "the command still runs 10 s after BEGIN"
wait "$TRACER" || die "sonde failed: $(cat "$work/err")"
TRACER=
awk -v s="$secs" 'BEGIN { exit !(s < 3) }' ||
	die "the command was stopped $secs s after BEGIN"
stderr_clean
exit 0
