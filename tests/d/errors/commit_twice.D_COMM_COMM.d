/* one commit() of a speculation per clause */
BEGIN
{
	s = speculation();
}

BEGIN
{
	commit(s);
	commit(s);
}
