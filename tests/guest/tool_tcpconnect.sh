# A port of tcpconnect: kprobe:tcp_connect with a struct sock cast (BTF),
# the address and port read through __sk_common's anonymous members.
. ./lib
tcp_server 8080
trace "nc 127.0.0.1 8080" '
kprobe:tcp_connect
{
	$sk = (struct sock *)arg0;
	$d = $sk->__sk_common.skc_daddr;
	$p = $sk->__sk_common.skc_dport;
	printf("%s %d.%d.%d.%d %d\n", comm, $d & 0xff, ($d >> 8) & 0xff,
	       ($d >> 16) & 0xff, ($d >> 24) & 0xff, (($p >> 8) | (($p << 8) & 0xff00)));
}'
expect "Attaching 1 probe...
nc 127.0.0.1 8080

"
stderr_clean
