/* the value through %s (two aggregations: the first one's keys) */
BEGIN
{
	@a[1] = count();
	@b[1] = sum(5);
	printa("%d %@d %@s\n", @a, @b);
	exit(0);
}
