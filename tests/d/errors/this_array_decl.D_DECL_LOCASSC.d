/* clause-locals are scalars */
this int a[int];

BEGIN
{
	exit(0);
}
