/* no aggregating action after commit() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	commit(s);
	@a[1] = sum(2);
}
