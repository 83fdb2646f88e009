/* a width is an int */
BEGIN
{
	printf("%*d\n", "foo", 1);
}
