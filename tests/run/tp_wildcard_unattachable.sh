#!/bin/bash
# A wildcard may match a tracepoint that the kernel will not attach to
# (here irq_vectors:irq_work_exit: perf_event_open fails with EPERM even
# for root).  As in bpftrace, that one is reported on stderr and the
# others still run; and the report must not blame a missing root.
. "$SONDE_ROOT/tests/lib/trace.sh"
# Is irq_work_exit really unattachable here?  sonde itself finds out.
out=$(timeout 10 "$SONDE" -e 't:irq_vectors:irq_work_exit { @ = count(); } interval:ms:10 { exit(); }' 2>&1)
[[ $? == 1 && $out == *"irq_work_exit: attach failed"* ]] ||
	{ echo "irq_vectors:irq_work_exit attaches on this kernel"; exit 77; }
[[ $out == *"needs root"* ]] && die "as root, the message blames a missing root: $out"
trace syscalls getppid 4 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:irq_vectors:*_exit /pid == $1/ { @[probe] = count(); }
tracepoint:raw_syscalls:sys_exit /pid == $1 && args->id == 110/ { @[probe] = count(); }' @TRIG@
grep -qx '@\[tracepoint:raw_syscalls:sys_exit\]: 4' "$work/out" ||
	die "want 4 raw_syscalls:sys_exit: $(cat "$work/out"; cat "$work/err")"
grep -q 'irq_work_exit' "$work/err" || die "irq_work_exit's failure is not reported: $(cat "$work/err")"
grep -q 'needs root' "$work/err" && die "as root, the message blames a missing root: $(cat "$work/err")"
exit 0
