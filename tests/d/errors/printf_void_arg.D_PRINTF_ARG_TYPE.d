/* an action has no value */
BEGIN
{
	printf("%d", printf(""));
}
