/* speculate() comes before the data-recording actions */
BEGIN
{
	s = speculation();
}

BEGIN
{
	printf("x");
	speculate(s);
}
