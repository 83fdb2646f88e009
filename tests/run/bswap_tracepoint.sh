#!/bin/bash
# bswap() of values that only exist at run time: sys_enter_getpgid's
# args->pid (a pid_t, so 32 bits) for getpgid(100000000 + k), swapped in
# the probe, printed, used as a map key and compared.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls pgids 3 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getpgid /pid == $1/ {
	printf("%x %x %d\n", bswap(args->pid), bswap((uint16)args->pid),
	       bswap(bswap(args->pid)) == args->pid);
	@[bswap(args->pid)] = count();
	@w = sizeof(bswap(args->pid));
}' @TRIG@
# 100000000 is 0x05f5e100
expect "Attaching 2 probes...
ready
e1f505 e1 1
1e1f505 1e1 1
2e1f505 2e1 1


@[14808325]: 1
@[31585541]: 1
@[48362757]: 1
@w: 4"
stderr_clean
