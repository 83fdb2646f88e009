/* no storage class on a parameter */
int foo(static int);

BEGIN
{
	exit(0);
}
