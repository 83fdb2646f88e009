#!/bin/bash
# -l: tracepoints by pattern, -lv their fields as declared, a bare word,
# software events, raw tracepoints including bare ones known only to
# BTF, interval and profile units, the full list with every kind, and
# the probes of a script.
set -u
fail() { echo "$*"; exit 1; }
out=$("$SONDE" -l 'tracepoint:sched:sched_switch') || fail "exit $?"
[[ $out == "tracepoint:sched:sched_switch" ]] || fail "pattern: $out"
out=$("$SONDE" -lv 'tracepoint:syscalls:sys_enter_openat')
grep -qx '    const char \* filename' <<<"$out" || fail "-lv: $out"
out=$("$SONDE" -l getppid)
grep -qx 'tracepoint:syscalls:sys_enter_getppid' <<<"$out" || fail "bare word: $out"
grep -q ':ftrace:' <<<"$("$SONDE" -l 'tracepoint:*')" && fail "ftrace's formats listed as tracepoints"
"$SONDE" -l 'software:*' | grep -qx 'software:page-faults:' || fail "software events"
"$SONDE" -l 'rawtracepoint:sched_switch' | grep -qx 'rawtracepoint:sched_switch' || fail "raw tracepoint"
if "$SONDE" --dump=bpf -e 'rawtracepoint:sched_update_nr_running_tp { }' >/dev/null 2>&1; then
	"$SONDE" -l 'rawtracepoint:sched_update*' | grep -qx 'rawtracepoint:sched_update_nr_running_tp' ||
		fail "a bare raw tracepoint that attaches is not listed"
fi
# short kind names list as their kind (bpftrace 0.17 expands them)
out=$("$SONDE" -l 't:sched:sched_switch') || fail "exit $?"
[[ $out == "tracepoint:sched:sched_switch" ]] || fail "t: $out"
"$SONDE" -l 's:page*' | grep -qx 'software:page-faults:' || fail "s: software events"
"$SONDE" -l 'rt:sched_switch' | grep -qx 'rawtracepoint:sched_switch' || fail "rt: raw tracepoint"
out=$("$SONDE" -l -e 'tracepoint:syscalls:sys_enter_getp* { } BEGIN { }')
want=$(printf 'tracepoint:syscalls:sys_enter_getpeername\ntracepoint:syscalls:sys_enter_getpgid\ntracepoint:syscalls:sys_enter_getpgrp\ntracepoint:syscalls:sys_enter_getpid\ntracepoint:syscalls:sys_enter_getppid\ntracepoint:syscalls:sys_enter_getpriority\nBEGIN')
[[ $out == "$want" ]] || fail "script's probes: $out"
# the units of interval and profile; a software event by its short name
# too (software:cpu:, as today's bpftrace lists it)
[[ $("$SONDE" -l 'interval:*') == $'interval:hz:\ninterval:us:\ninterval:ms:\ninterval:s:' ]] ||
	fail "interval: $("$SONDE" -l 'interval:*')"
"$SONDE" -l 'profile:*' | grep -qx 'profile:hz:' || fail "profile units"
"$SONDE" -l 'software:*' | grep -qx 'software:cpu:' || fail "software short names"
"$SONDE" -l '*ware:*' | grep -qx 'hardware:cpu-cycles:' || fail "a wildcard over kinds"
all=$("$SONDE" -l 2>/dev/null)
for kind in tracepoint rawtracepoint software hardware interval profile; do
	grep -q "^$kind:" <<<"$all" || fail "the full list has no $kind"
done
exit 0
