/* stddev() of a string */
BEGIN
{
	@a = stddev("x");
}
