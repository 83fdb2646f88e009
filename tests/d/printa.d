/* printa() with a format: %@ takes the aggregation's value, the other
 * conversions the keys in order; rows in DTrace's order (by value,
 * then key); a printed aggregation is not printed again at exit. */
#pragma D option quiet

BEGIN
{
	@a["x"] = count();
	@a["y"] = count();
	@a["y"] = count();
	@b[1, "k"] = sum(42);
	@b[2, "j"] = sum(7);
	printa("%-10s %@5d\n", @a);
	printa("%d %s = %@d\n", @b);
	exit(0);
}
