void *p;

BEGIN
{
	y = *p;
	exit(0);
}
