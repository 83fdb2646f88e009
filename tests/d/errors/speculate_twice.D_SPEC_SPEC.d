/* one speculate() per clause */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	speculate(s);
}
