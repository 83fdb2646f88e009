/* tracemem(addr, size): the bytes as a dump, 16 to a row with their
 * characters; tracemem(addr, size, dsize): only the first dsize (at
 * most size) of them. */
#pragma D option quiet

int a[4];

BEGIN
{
	a[0] = 0x64636261;
	a[1] = 0x0a006665;
	a[2] = -1;
	a[3] = 0x7a;
	tracemem(&a[0], 16);
	tracemem(&a[0], 16, 6);
	n = 40;
	tracemem(&a[0], 3, n);
	exit(0);
}
