/* no data-recording action after commit() */
BEGIN
{
	s = speculation();
}

BEGIN
{
	commit(s);
	printf("x");
}
