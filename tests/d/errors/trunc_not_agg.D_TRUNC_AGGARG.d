/* trunc() takes an aggregation */
BEGIN
{
	trunc(1);
}
