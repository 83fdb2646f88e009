int foo(int, void);

BEGIN
{
	exit(0);
}
