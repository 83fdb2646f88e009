/* an aggregation assigned what no aggregating function gave */
BEGIN
{
	@a = 5;
}
