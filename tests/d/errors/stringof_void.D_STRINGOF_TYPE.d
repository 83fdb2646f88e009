/* an action has no value to make a string of */
BEGIN
{
	printf("%s", stringof(trace(0)));
}
