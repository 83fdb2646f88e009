/* printa() of several aggregations: one row per key found in any, a
 * missing value the aggregation's zero, rows in the order of the first
 * aggregation's value; each %@ takes the next aggregation's value;
 * without a format, the keys then each value in a column. */
#pragma D option quiet

BEGIN
{
	@a[1] = count();
	@a[2] = count();
	@a[2] = count();
	@b[2] = sum(5);
	@b[3] = sum(7);
	printa("%d %@d %@d\n", @a, @b);
	printa(@a, @b);
	exit(0);
}
