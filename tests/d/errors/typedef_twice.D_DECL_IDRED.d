typedef int t;
typedef long t;

BEGIN
{
	exit(0);
}
