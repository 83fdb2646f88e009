/* no destructive action after speculate() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	raise(9);
}
