/* profile-N's arg0 and arg1: the kernel's and the process's program
 * counter, one of them 0 (a name alone, profile-97, is no process's
 * probe); a comparison is an int, as in C. */
#pragma D option quiet

profile-97
{
	@[arg0 != 0 || arg1 != 0, (arg0 != 0) + (arg1 != 0)] = count();
}

tick-300ms
{
	printa("%d %d\n", @);
	exit(0);
}
