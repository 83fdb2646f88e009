/* %% takes no flags */
BEGIN
{
	printf("%-%", 1);
}
