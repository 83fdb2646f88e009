/* commit() or discard() of an id no speculation() gives (past nspec)
 * is an illegal operation: the clause stops there, ERROR runs; 0 does
 * nothing. */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	n = 1;
	commit(0);
}

BEGIN
{
	n = 2;
	discard(1024);
	n = 3;
}

BEGIN
{
	printf("n = %d\n", n);
}

ERROR
{
	printf("ERROR: fault %d\n", arg4);
}

BEGIN
{
	exit(0);
}
