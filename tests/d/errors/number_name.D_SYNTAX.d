int 1x;

BEGIN
{
	exit(0);
}
