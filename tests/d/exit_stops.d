/* After exit() the clause goes on, but no later clause runs, in this
 * firing or another, END's excepted (DTrace's probes stop firing). */
#pragma D option quiet

BEGIN
{
	exit(0);
	printf("the clause goes on\n");
}

BEGIN
{
	printf("a later clause: not printed\n");
}

tick-1ms
{
	printf("a later firing: not printed\n");
}

END
{
	printf("END runs\n");
}
