/* no aggregating action after speculate() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	@a = count();
}
