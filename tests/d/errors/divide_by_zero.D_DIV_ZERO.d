/* a constant division by zero is D's compile error */
BEGIN
{
	x = 10 / 0;
	exit(0);
}
