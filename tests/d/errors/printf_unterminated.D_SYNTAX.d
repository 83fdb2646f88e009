/* a conversion needs its name */
BEGIN
{
	printf("%*");
}
