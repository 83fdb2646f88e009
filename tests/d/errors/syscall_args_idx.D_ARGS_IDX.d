/* openat has four arguments: args[0] to args[3] */
syscall::openat:entry
{
	trace(args[7]);
}
