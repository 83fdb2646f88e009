#!/bin/bash
# Raw tracepoints need no tracefs event: the scheduler's bare
# tracepoints (sched_update_nr_running_tp, pelt_cfs_tp, ...: DECLARE_TRACE
# without an event, for BPF and modules) attach by name like any other.
# sched_update_nr_running_tp fires in the trigger's context at least when
# it is dequeued for each of its 5 sleeps.
. "$SONDE_ROOT/tests/lib/trace.sh"
grep -q ' __traceiter_sched_update_nr_running_tp$' /proc/kallsyms ||
	{ echo "no sched_update_nr_running_tp in this kernel"; exit 77; }
trace syscalls sleep 5 1000 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
rawtracepoint:sched_update_nr_running_tp /pid == $1/ { @n = count(); }' @TRIG@
stderr_clean
n=$(sed -n 's/^@n: //p' "$work/out")
(( n >= 5 && n <= 40 )) || die "want 5..40 events, got '$n': $(cat "$work/out")"
exit 0
