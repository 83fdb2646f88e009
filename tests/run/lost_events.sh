#!/bin/bash
# A full ring buffer loses events, and sonde says how many at exit
# ("Lost N events", as bpftrace does): with sonde stopped (SIGSTOP) while
# the trigger makes 200000 getppid calls, each a 160-byte record, a
# 1 MiB ring (--ringbuf-size: the default holds them all) fills; every
# call is then either a printed line or lost.
. "$SONDE_ROOT/tests/lib/trace.sh"
n=200000
trigger_start syscalls getppid $n
tracer_start "$SONDE" --ringbuf-size 1M -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { printf("%d %s %s\n", 7, comm, "0123456789012345678901234567890123456789"); }' "$TRIG"
kill -STOP "$TRACER"
trigger_go
kill -CONT "$TRACER"
sleep 1
tracer_stop
lines=$(grep -c '^7 ' "$work/out")
lost=$(sed -n 's/^Lost \([0-9]*\) events$/\1/p' "$work/err")
[[ -n $lost ]] || die "no 'Lost N events' line; stderr: $(cat "$work/err") ($lines lines)"
(( lost > 0 && lines > 0 )) || die "$lines lines, $lost lost: want some of each"
(( lines + lost == n )) || die "$lines lines + $lost lost != $n calls"
echo "$lines lines, $lost lost" >&2
