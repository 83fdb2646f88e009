/* stringof() makes a string of a string or an address */
BEGIN
{
	trace(stringof(stack()));
}
