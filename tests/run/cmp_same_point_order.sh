#!/bin/bash
# Blocks on one probe point fire in the order they are written, as in
# bpftrace, whatever order the kernel runs a point's programs in
# (uprobe consumers newest first; tracepoint programs oldest first).
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace cat syscalls getppid 1 -- '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { printf("t1"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { printf(" t2\n"); }
uprobe:libc:syscall /pid == $1 && arg0 == 110/ { printf("u1"); }
uprobe:libc:syscall /pid == $1 && arg0 == 110/ { printf(" u2"); }
uprobe:libc:syscall /pid == $1 && arg0 == 110/ { printf(" u3\n"); }
uretprobe:libc:syscall /pid == $1/ { printf("r1"); }
uretprobe:libc:syscall /pid == $1/ { printf(" r2\n"); }' @TRIG@
expect "Attaching 8 probes...
ready
u1 u2 u3
t1 t2
r1 r2

"
