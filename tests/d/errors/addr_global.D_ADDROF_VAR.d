int i;

BEGIN
{
	p = &i;
	exit(0);
}
