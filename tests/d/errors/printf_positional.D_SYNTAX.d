/* no positional arguments */
BEGIN
{
	printf("%1$d", 1);
}
