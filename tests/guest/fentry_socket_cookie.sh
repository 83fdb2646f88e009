# socket_cookie() (bpftrace 0.26) of fentry:tcp_connect's socket: not
# 0, the same on a second call; and percpu_kaddr() of the run queues
# (the current CPU's, and CPU 0's, whose rq->cpu is 0; a CPU past the
# last gives NULL), which needs the data symbols of kallsyms.
. ./lib
tcp_server 8082
trace "nc 127.0.0.1 8082" '
fentry:tcp_connect
{
	$c = socket_cookie(args.sk);
	printf("%s %d %d\n", comm, $c != 0, $c == socket_cookie(args.sk));
	$r = (struct rq *)percpu_kaddr("runqueues", 0);
	$me = (struct rq *)percpu_kaddr("runqueues");
	$none = percpu_kaddr("runqueues", 100000);
	if ($r != 0) {
		printf("%d %d %d\n", $r->cpu, $me->cpu == cpu, $none == 0);
	}
}'
expect "Attaching 1 probe...
nc 1 1
0 1 1

"
stderr_clean
