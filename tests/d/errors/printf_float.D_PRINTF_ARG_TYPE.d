/* no floating-point values in D on Linux */
BEGIN
{
	printf("%f", 1);
}
