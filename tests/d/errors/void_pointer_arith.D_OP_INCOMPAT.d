void *p;

BEGIN
{
	q = p + 1;
	exit(0);
}
