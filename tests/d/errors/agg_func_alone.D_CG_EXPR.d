/* an aggregating function belongs to an aggregation */
BEGIN
{
	avg(1);
}
