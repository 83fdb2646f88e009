/* no such conversion */
BEGIN
{
	printf("%q", 1);
}
