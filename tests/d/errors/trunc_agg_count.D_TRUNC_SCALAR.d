/* trunc()'s count is no aggregation */
BEGIN
{
	@[0] = count();
	trunc(@, @);
}
