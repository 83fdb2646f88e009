/* The middle of D's ?: is any expression, an assignment too. */
#pragma D option quiet

BEGIN
{
	x = (n++ == 0) ? y = 5 : 7;
	z = (n++ == 0) ? y = 9 : 7;
	printf("%d %d %d\n", x, y, z);
	exit(0);
}
