#!/bin/bash
# tracepoint:syscalls:sys_enter_getppid fires exactly once per getppid()
# call: the trigger makes 7, counted by pid, by comm, and by the alias
# t:, with @[comm] keys and the syscall number from args.  The trigger
# runs under a comm of its own (sy-PID), so that no other process has it.
. "$SONDE_ROOT/tests/lib/trace.sh"
export TRIG_COMM=sy-$$
trace syscalls getppid 7 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { @bypid = count(); @nr[args->__syscall_nr == $3] = count(); }
t:syscalls:sys_enter_getppid /comm == str($4)/ { @[comm] = count(); }
tracepoint:syscalls:sys_exit_getppid /pid == $1/ { @ret[args->ret == $2] = count(); }' @TRIG@ $$ "$NR_getppid" "$TRIG_COMM"
# $$ is this shell: the trigger's parent, so getppid() returns it.
expect "Attaching 4 probes...
ready


@[$TRIG_COMM]: 7
@bypid: 7
@nr[1]: 7
@ret[1]: 7"
stderr_clean
