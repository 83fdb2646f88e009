/* += of a string to an int */
BEGIN
{
	a = 3; a += "foobar";
}
