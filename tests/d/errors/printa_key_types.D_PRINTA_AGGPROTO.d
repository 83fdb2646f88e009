/* printa() joins aggregations with keys of the same types */
BEGIN
{
	@foo[123] = sum(123);
	@bar["fooey"] = sum(456);
	printa("%10d %@10d %@10d\n", @foo, @bar);
}
