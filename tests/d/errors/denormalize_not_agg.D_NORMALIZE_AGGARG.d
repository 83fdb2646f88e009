/* denormalize() takes an aggregation, as normalize() does */
BEGIN
{
	denormalize(count());
}
