#!/bin/bash
# A syscall tracepoint's pointer to a struct is typed from BTF and read
# from the calling process's memory (probe_read_user): clock_nanosleep's
# args->rqtp->tv_sec/tv_nsec are the trigger's timespec, and sendmsg's
# args->msg->msg_iov->iov_len follows a pointer stored in that user
# struct, which is user memory too.  (bpftrace's naptime.bt reads
# args->rqtp->tv_sec this way.)
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls sleep 2 1250 sendmsg 3 77 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_clock_nanosleep /pid == $1/ {
	printf("sleep %d.%09d\n", args->rqtp->tv_sec, args->rqtp->tv_nsec);
}
tracepoint:syscalls:sys_enter_sendmsg /pid == $1/ {
	@iovlen[args->msg->msg_iovlen] = count();
	@len[args->msg->msg_iov->iov_len] = count();
}' @TRIG@
expect "Attaching 3 probes...
ready
sleep 0.001250000
sleep 0.001250000


@iovlen[1]: 3
@len[77]: 3"
stderr_clean
