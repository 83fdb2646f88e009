/* tracemem(addr, size): the bytes as a dump, 16 to a row with their
 * characters; tracemem(addr, size, dsize): only the first dsize (at
 * most size) of them.  A size past strsize is recorded whole, and may
 * be a sizeof. */
#pragma D option quiet

int a[4];
int big[80];

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
	big[79] = 0x21212121;
	tracemem(&big[0], sizeof(big));
	exit(0);
}
