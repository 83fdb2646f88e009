#!/bin/bash
# The "context switches by process" one-liners print what bpftrace 0.17
# prints: sched_switch counted by args->prev_comm (char[16]) and by
# args->next_comm, and a printf per switch of the trigger out; counts
# depend on preemption, so they are compared as N, and the printf lines
# as one line.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace "sed -E 's/: [0-9]+\$/: N/' | awk '!(/ out\$/ && p == \$0); { p = \$0 }'" syscalls sleep 4 2000 -- '
BEGIN { printf("ready\n"); }
tracepoint:sched:sched_switch /args->prev_pid == $1/ { @[args->prev_comm] = count(); printf("%s out\n", args->prev_comm); }
tracepoint:sched:sched_switch /args->next_pid == $1/ { @in[args->next_comm, args->next_pid == $1] = count(); }' @TRIG@
n=$(grep -c '^syscalls out$' "$work/sonde.raw")
(( n >= 5 )) || die "$n switches out, want at least 5: $(cat "$work/sonde.raw")"
expect "Attaching 3 probes...
ready
syscalls out


@[syscalls]: N
@in[syscalls, 1]: N" "$work/sonde"
