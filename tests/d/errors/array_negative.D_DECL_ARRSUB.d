int neg[-2];

BEGIN
{
	exit(0);
}
