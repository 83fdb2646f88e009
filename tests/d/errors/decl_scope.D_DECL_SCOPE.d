/* no backquote in a declared name */
int `xyz;

BEGIN
{
	exit(0);
}
