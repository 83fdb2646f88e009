/* speculation() gives 0 when every speculation is in use (nspec
 * defaults to 1), and dtrace says how often at the end; a committed
 * one is free again. */
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
