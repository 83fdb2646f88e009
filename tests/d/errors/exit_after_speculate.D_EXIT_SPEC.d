/* no exit() after speculate() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	exit(0);
}
