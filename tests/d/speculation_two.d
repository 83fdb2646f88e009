/* Two speculations at once (nspec=2): each keeps its own records, in
 * order, from several firings of a tick probe; one is committed, the
 * other discarded.  (Each tick-10ms clause has a timer of its own, so
 * the counter moves in the clause that speculates: the commit cannot
 * overtake a record.) */
#pragma D option quiet
#pragma D option nspec=2

BEGIN
{
	a = speculation();
	b = speculation();
	printf("ids %d %d\n", a, b);
}

tick-10ms
/n < 6/
{
	speculate(n % 2 ? b : a);
	printf("%s %d\n", n % 2 ? "b" : "a", n);
	n++;
}

tick-10ms
/n == 6/
{
	discard(b);
	commit(a);
	n++;
}

tick-10ms
/n == 7/
{
	printf("done\n");
	exit(0);
}
