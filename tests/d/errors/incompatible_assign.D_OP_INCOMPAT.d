/* a global holds one type */
BEGIN
{
	x = 1;
	x = "string";
	exit(0);
}
