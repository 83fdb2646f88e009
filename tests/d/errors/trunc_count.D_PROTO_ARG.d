/* trunc()'s count is an int */
BEGIN
{
	@a = count();
	trunc(@a, "x");
}
