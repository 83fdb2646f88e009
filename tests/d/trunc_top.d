/* trunc(@a, n) keeps the n rows of largest value (n < 0: the -n
 * smallest), histograms by their count of values; trunc(@a) clears. */
#pragma D option quiet

BEGIN
{
	@a[1] = sum(10);
	@a[2] = sum(30);
	@a[3] = sum(20);
	@a[4] = sum(5);
	trunc(@a, 2);
	printa(@a);
	@b[1] = sum(10);
	@b[2] = sum(30);
	@b[3] = sum(20);
	trunc(@b, -1);
	printa(@b);
	@q[1] = quantize(1);
	@q[2] = quantize(1);
	@q[2] = quantize(2);
	trunc(@q, 1);
	printa(@q);
	@c = count();
	trunc(@c);
	exit(0);
}
