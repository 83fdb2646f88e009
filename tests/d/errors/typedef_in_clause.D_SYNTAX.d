BEGIN
{
	typedef int t;
	exit(0);
}
