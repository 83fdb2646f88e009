int a(void v);

BEGIN
{
	exit(0);
}
