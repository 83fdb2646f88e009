/* a character constant holds at most 8 characters */
BEGIN
{
	trace('abcdefghi');
}
