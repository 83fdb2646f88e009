/* one precision */
BEGIN
{
	printf("%.*.*d", 1, 2, 3);
}
