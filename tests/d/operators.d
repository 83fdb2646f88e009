/* D's operators beyond C's: ^^ (logical exclusive or); D's remainder
 * takes the quotient's sign, as dtrace-utils computes it. */
#pragma D option quiet

BEGIN
{
	x = 19;
	y = 5;
	printf("%d %d %d %d\n", 1 ^^ 0, 1 ^^ 2, 0 ^^ 0, 3 ^ 1);
	printf("%d %d %d %d\n", x % y, x % -y, -x % y, -x % -y);
	printf("%d %d %d %d\n", x / y, x / -y, -x / y, -x / -y);
	exit(0);
}
