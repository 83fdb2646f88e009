#!/bin/bash
# Wildcards in tracepoint names expand to one probe per match, each with
# its full name in `probe` (even when written with the t: alias): the
# trigger makes 3 getppid, 4 getpid, 5 getpgrp and 6 getpgid calls, and
# getpeername and getpriority (matched, never called) print nothing.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls getppid 3 getpid 4 getpgrp 5 getpgid 6 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_get*ppid* /pid == $1/ { @[probe] = count(); }
t:syscalls:sys_enter_getp* /pid == $1/ { @p[probe] = count(); }
t:sys?alls:sys_exit_getp?d /pid == $1/ { @x[probe] = count(); }' @TRIG@
expect "Attaching 9 probes...
ready


@[tracepoint:syscalls:sys_enter_getppid]: 3
@p[tracepoint:syscalls:sys_enter_getppid]: 3
@p[tracepoint:syscalls:sys_enter_getpid]: 4
@p[tracepoint:syscalls:sys_enter_getpgrp]: 5
@p[tracepoint:syscalls:sys_enter_getpgid]: 6
@x[tracepoint:syscalls:sys_exit_getpid]: 4"
stderr_clean
