/* printa() joins aggregations with the same number of keys */
BEGIN
{
	@foo[123] = sum(123);
	@bar = sum(456);
	printa("%10d %@10d %@10d\n", @foo, @bar);
}
