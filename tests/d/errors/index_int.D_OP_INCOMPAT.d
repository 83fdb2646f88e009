/* index() of a number, where a string goes: D_OP_INCOMPAT */
#pragma D option quiet

BEGIN
{
	printf("%d\n", index(1, "a"));
	exit(0);
}
