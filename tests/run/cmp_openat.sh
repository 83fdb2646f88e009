#!/bin/bash
# The "files opened" one-liners print what bpftrace 0.17 prints: printf
# of comm and str(args->filename) per openat, and a count per file name.
. "$SONDE_ROOT/tests/lib/trace.sh"
touch "$work/one" "$work/two"
compare_bpftrace cat syscalls open "$work/one" open "$work/two" open "$work/one" -- '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_openat /pid == $1/ { printf("%s %s\n", comm, str(args->filename)); @[str(args->filename)] = count(); }
tracepoint:syscalls:sys_exit_openat /pid == $1/ { @fd = hist(args->ret); }' @TRIG@
expect "Attaching 3 probes...
ready
syscalls $work/one
syscalls $work/two
syscalls $work/one


@[$work/two]: 1
@[$work/one]: 2
@fd: 
[4, 8)                 3 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
" "$work/sonde"
