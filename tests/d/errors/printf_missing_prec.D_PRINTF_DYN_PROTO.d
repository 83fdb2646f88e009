/* no argument for the precision */
BEGIN
{
	printf("%s %.*d\n", "foo");
}
