/* args is an array, not a value */
BEGIN
{
	trace(args);
}
