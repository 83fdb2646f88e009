#!/bin/bash
# The "syscalls by process" one-liners print exactly what bpftrace 0.17
# prints: raw_syscalls:sys_enter counted by comm and by args->id for a
# trigger whose calls after the start signal are 5 getppid, 3 getpid and
# its exit_group.  The trigger runs under a comm of its own.
. "$SONDE_ROOT/tests/lib/trace.sh"
export TRIG_COMM=sy-$$
compare_bpftrace cat syscalls getppid 5 getpid 3 -- '
BEGIN { printf("ready\n"); }
tracepoint:raw_syscalls:sys_enter /comm == str($4)/ { @[comm] = count(); }
tracepoint:raw_syscalls:sys_enter /pid == $1/ { @nr[args->id == $2 ? "getppid" : args->id == $3 ? "getpid" : "other"] = count(); }
tracepoint:raw_syscalls:sys_exit /pid == $1/ { @ret = sum(args->ret == $1); }' @TRIG@ "$NR_getppid" "$NR_getpid" "$TRIG_COMM"
expect "Attaching 4 probes...
ready


@[$TRIG_COMM]: 9
@nr[other]: 1
@nr[getpid]: 3
@nr[getppid]: 5
@ret: 3" "$work/sonde"
