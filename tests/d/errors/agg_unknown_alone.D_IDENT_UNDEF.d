/* an aggregation alone, never given a function, is unknown */
BEGIN
{
	@a;
}
