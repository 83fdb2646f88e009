/* one storage class */
self this int x;

BEGIN
{
	exit(0);
}
