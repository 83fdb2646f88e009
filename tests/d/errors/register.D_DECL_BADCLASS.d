/* D has no register variables */
register x;

BEGIN
{
	exit(0);
}
