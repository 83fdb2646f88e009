/* %@ belongs to printa() */
BEGIN
{
	printf("%@d", 1);
}
