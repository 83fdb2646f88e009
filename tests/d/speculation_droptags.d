/* -x droptags: the drops at the end say their kind, as dtrace's
 * [DTRACEDROP_SPECUNAVAIL]. */
#pragma D option quiet

BEGIN
{
	a = speculation();
	b = speculation();
	printf("first %d, second %d\n", a, b);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	printf("after the commit %d\n", speculation());
	exit(0);
}
