int *ip;

BEGIN
{
	trace(ip->x);
	exit(0);
}
