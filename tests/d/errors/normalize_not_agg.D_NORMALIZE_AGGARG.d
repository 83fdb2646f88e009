/* normalize() takes an aggregation */
BEGIN
{
	normalize(2, 1);
}
