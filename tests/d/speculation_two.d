/* Two speculations at once (nspec=2): each keeps its own records, in
 * order, from several firings of a tick probe; one is committed, the
 * other discarded. */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	printf("ids %d %d\n", a, b);
}

tick-10ms
/n < 3/
{
	speculate(a);
	printf("a %d\n", n);
}

tick-10ms
/n < 3/
{
	speculate(b);
	printf("b %d\n", n);
}

tick-10ms
/n < 3/
{
	n++;
}

tick-10ms
/n == 3/
{
	discard(b);
	commit(a);
	n++;
}

tick-10ms
/n == 4/
{
	printf("done\n");
	exit(0);
}
