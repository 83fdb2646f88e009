#!/bin/bash
# software:context-switches:1 (and its alias s:cs:1) fires on every
# switch: a trigger that sleeps 15 times is switched out at least 15
# times (a few more if it is preempted), and sched:sched_switch agrees
# with it exactly: both see the same switches out of the trigger.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls sleep 15 1000 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
software:context-switches:1 /pid == $1/ { @cs = count(); }
s:cs:1 /pid == $1/ { @alias = count(); }
tracepoint:sched:sched_switch /args->prev_pid == $1/ { @switch = count(); }' @TRIG@
stderr_clean
count() { sed -n "s/^@$1: //p" "$work/out"; }
cs=$(count cs) alias=$(count alias) sw=$(count switch)
(( cs >= 15 && cs <= 40 )) || die "context-switches: $cs, want 15..40: $(cat "$work/out")"
[[ $alias == "$cs" ]] || die "s:cs:1 counted $alias, software:context-switches:1 $cs"
[[ $sw == "$cs" ]] || die "sched_switch counted $sw, context-switches $cs"
got=$(sed -E 's/: [0-9]+$/: N/' "$work/out")
expect "Attaching 4 probes...
ready


@alias: N
@cs: N
@switch: N" <(echo "$got")
