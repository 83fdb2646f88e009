/* An ERROR clause is accepted and matched (dtrace-utils' tests all
 * have one); sonde reports run-time errors itself, so it never fires. */
#pragma D option quiet

BEGIN
{
	printf("begin\n");
	exit(0);
}

ERROR
{
	exit(1);
}
