# kprobe: arg1 of tcp_v4_connect cast to a BTF struct pointer,
# (struct sockaddr_in *), read through nested members.
. ./lib
tcp_server 8082
trace "nc 127.0.0.1 8082" '
kprobe:tcp_v4_connect
{
	$a = (struct sockaddr_in *)arg1;
	$p = $a->sin_port;
	printf("%s %d %d %x\n", comm, $a->sin_family, (($p >> 8) | (($p << 8) & 0xff00)),
	       $a->sin_addr.s_addr);
}'
expect "Attaching 1 probe...
nc 2 8082 100007f

"
stderr_clean
