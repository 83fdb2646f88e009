#!/bin/bash
# sched:sched_switch: args->prev_comm and args->next_comm are char[16]
# fields read in place; the trigger sleeps 10 times, so it is switched
# out (prev) and back in (next) at least 10 times each, and its char[16]
# comm compares equal to a string literal in a predicate.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls sleep 10 1000 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:sched:sched_switch /args->prev_pid == $1/ { @prev[args->prev_comm] = count(); }
tracepoint:sched:sched_switch /args->next_pid == $1/ { @next[args.next_comm] = count(); }
tracepoint:sched:sched_switch /args->prev_comm == "syscalls" && args->prev_pid == $1/ { @cmp = count(); }' @TRIG@
stderr_clean
# The counts depend on preemption: at least 10, and not absurdly many.
got=$(sed -E 's/: (1[0-9]|[2-9][0-9])$/: N/' "$work/out")
expect "Attaching 4 probes...
ready


@cmp: N
@next[syscalls]: N
@prev[syscalls]: N" <(echo "$got")
