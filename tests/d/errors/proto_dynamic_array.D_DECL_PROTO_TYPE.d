int a(int b[int]);

BEGIN
{
	exit(0);
}
