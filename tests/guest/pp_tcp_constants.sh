# The preprocessor and kernel constants on a kernel with kprobes, as
# bpftrace's tcpconnect and tcplife use them: their #include lines (no
# kernel headers in the guest), AF_INET from sonde's list, TCP_SYN_SENT
# from the guest kernel's BTF, a script macro.
. ./lib
tcp_server 8080
trace "nc 127.0.0.1 8080" '
#ifndef BPFTRACE_HAVE_BTF
#include <linux/socket.h>
#include <net/sock.h>
#else
#include <sys/socket.h>
#endif
#include <net/tcp_states.h>
#define FAMILY(sk) ((sk)->__sk_common.skc_family)
kprobe:tcp_set_state
/pid == cpid && arg1 == TCP_SYN_SENT/
{
	printf("state %d\n", TCP_SYN_SENT);
}
kprobe:tcp_connect
/pid == cpid/
{
	$sk = (struct sock *)arg0;
	if (FAMILY($sk) == AF_INET || FAMILY($sk) == AF_INET6) {
		printf("%s %d\n", FAMILY($sk) == AF_INET ? "AF_INET" : "AF_INET6",
		       FAMILY($sk));
	}
}'
expect "Attaching 2 probes...
state 2
AF_INET 2

"
stderr_clean
