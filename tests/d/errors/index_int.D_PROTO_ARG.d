/* index() of a number, where a string goes: D_PROTO_ARG */
#pragma D option quiet

BEGIN
{
	printf("%d\n", index(1, "a"));
	exit(0);
}
