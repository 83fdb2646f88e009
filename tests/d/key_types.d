/* A key's type is its first use's: later keys are converted to it (a
 * char key of 257 is 1), and its column is printed at its width. */
#pragma D option quiet

BEGIN
{
	@a[(int32_t)1, 2] = count();
	@a[(int64_t)1, 2] = count();
	@b[(char)1] = count();
	@b[257] = count();
	@c[(uint8_t)3] = sum(1);
	@c[(int64_t)-1] = sum(5);
	x[(short)1] = 5;
	printf("%d\n", x[65537]);
	exit(0);
}
