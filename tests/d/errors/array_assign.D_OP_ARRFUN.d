int a[3];
int b[3];

BEGIN
{
	a = b;
	exit(0);
}
