/* speculate(0), or an id no speculation() gave: the clause's records
 * are dropped (the rest of the clause does not run). */
#pragma D option quiet

BEGIN
{
	speculate(0);
	printf("not printed\n");
}

BEGIN
{
	speculate(1);
	printf("not printed either: 1 is not active\n");
}

BEGIN
{
	commit(0);
	discard(0);
}

BEGIN
{
	printf("commit(0) and discard(0) do nothing\n");
	exit(0);
}
