int x;

BEGIN
{
	y = *x;
	exit(0);
}
