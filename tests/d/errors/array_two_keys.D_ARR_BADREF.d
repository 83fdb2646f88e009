int a[4];

BEGIN
{
	a[1, 2] = 3;
	exit(0);
}
