/* an aggregation alone does nothing */
BEGIN
{
	@a[1];
}
