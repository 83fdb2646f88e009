/* an aggregation is no value for printf */
BEGIN
{
	@a = count(); printf("%d", @a);
}
