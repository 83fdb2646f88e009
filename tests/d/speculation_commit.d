/* commit(): a speculation's records print when it is committed, in
 * the order they were made, each clause's firing line with them (not
 * quiet: the line is speculative too); a clause that only speculates,
 * commits or assigns prints no line of its own. */
BEGIN
{
	i = 0;
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("speculated %d", spec);
}

BEGIN
{
	printf("before the commit");
}

BEGIN
{
	speculate(spec);
	i++;
	trace((int32_t)i);
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	printf("after the commit");
	exit(0);
}
