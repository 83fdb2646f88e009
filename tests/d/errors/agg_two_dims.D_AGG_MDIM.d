/* one list of keys per aggregation */
BEGIN
{
	@c[0][2] = count();
}
