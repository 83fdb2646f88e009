/* commit() may not follow a data-recording action */
BEGIN
{
	s = speculation();
}

BEGIN
{
	trace(1);
	commit(s);
}
