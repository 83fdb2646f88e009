/* speculate() may not follow commit() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	commit(s);
	speculate(s);
}
