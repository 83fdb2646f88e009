# A tcpconnect on fentry:tcp_connect: args.sk is typed (struct sock *),
# so no cast; narrow members (u16 dport, unsigned short family) go
# through variables.
. ./lib
tcp_server 8081
trace "nc 127.0.0.1 8081" '
fentry:tcp_connect
{
	$f = args.sk->__sk_common.skc_family;
	$d = args.sk->__sk_common.skc_daddr;
	$p = args.sk->__sk_common.skc_dport;
	printf("%s %d %x %d\n", comm, $f, $d, (($p >> 8) | (($p << 8) & 0xff00)));
}'
expect "Attaching 1 probe...
nc 2 100007f 8081

"
stderr_clean
