#!/bin/bash
# A field that is an integer of a different width in two tracepoints of
# one block (fd is unsigned int in sys_enter_write and unsigned long in
# sys_enter_writev, both matched by sys_enter_write*) is still one
# integer: the block reads each record's own width, as bpftrace does,
# rather than refusing the script.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls write 3 10 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_write* /pid == $1/ { @[probe, args->fd] = count(); @fd = sum(args->fd); }' @TRIG@
# The trigger writes to /dev/null, its fd 4.
expect "Attaching 3 probes...
ready


@[tracepoint:syscalls:sys_enter_write, 4]: 3
@fd: 12"
stderr_clean
