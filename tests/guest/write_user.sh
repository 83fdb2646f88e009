# write_user() (bpftrace 0.26, --unsafe): rewrite the path cat opens,
# in cat's own memory, before the kernel reads it: cat prints the other
# file.  The host's kernel (lockdown) refuses bpf_probe_write_user.
. ./lib
echo original > /tmp/wu_a
echo redirected > /tmp/wu_b
trace "cat /tmp/wu_a" '
tracepoint:syscalls:sys_enter_openat /pid == cpid && strcontains(str(args.filename), "wu_a")/
{
	$new = "/tmp/wu_b";
	@wrote = write_user(args.filename, $new, 10);
}' --unsafe
expect "Attaching 1 probe...
redirected


@wrote: 1"
stderr_clean
