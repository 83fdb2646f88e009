int a[4];

BEGIN
/a/
{
	exit(0);
}
