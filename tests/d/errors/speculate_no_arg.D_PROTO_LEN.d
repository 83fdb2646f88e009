/* speculate() takes the speculation */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate();
}
