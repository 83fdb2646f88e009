#!/bin/bash
# sys_enter_connect: the address a process connects to, read from its
# memory with buf() (user memory: a syscall tracepoint's pointer) and
# printed by ntop(), for IPv4 and IPv6, with a run-time address family
# and a run-time buf() length; macaddr() reads 6 bytes at an address;
# %r shows the raw sockaddr.  ntop values as map keys and in print().
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls connect 127.0.0.1 9 connect ::1 53 connect 10.1.2.3 80 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_connect /pid == $1 && args->addrlen == 16/ {
	printf("v4 %s %r\n", ntop(buf((uint64)args->uservaddr + 4, 4)),
	       buf(args->uservaddr, args->addrlen));
	printf("port+addr %s\n", macaddr((uint64)args->uservaddr + 2));
	@[ntop(buf((uint64)args->uservaddr + 4, 4))] = count();
}
tracepoint:syscalls:sys_enter_connect /pid == $1 && args->addrlen == 28/ {
	$af = 10;
	$a = ntop($af, buf((uint64)args->uservaddr + 8, 16));
	printf("v6 %s %rh\n", $a, buf(args->uservaddr, 8));
	print($a);
	@[$a] = count();
}' @TRIG@
z='\x00\x00\x00\x00\x00\x00\x00\x00'
expect "Attaching 3 probes...
ready
v4 127.0.0.1 \x02\x00\x00\x09\x7f\x00\x00\x01$z
port+addr 00:09:7F:00:00:01
v6 ::1 0a 00 00 35 00 00 00 00
::1
v4 10.1.2.3 \x02\x00\x00P\x0a\x01\x02\x03$z
port+addr 00:50:0A:01:02:03


@[10.1.2.3]: 1
@[127.0.0.1]: 1
@[::1]: 1"
stderr_clean
