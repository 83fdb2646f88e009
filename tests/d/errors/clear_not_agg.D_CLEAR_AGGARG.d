/* clear() takes an aggregation */
BEGIN
{
	clear(count());
}
