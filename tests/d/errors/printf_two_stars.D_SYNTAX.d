/* one width */
BEGIN
{
	printf("%**d", 1, 2);
}
