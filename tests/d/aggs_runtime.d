/* D's aggregations of values the verifier cannot know (globals set in
 * an earlier clause): every path of the bucket and square code is
 * checked and runs; increments from variables, negative ones too. */
#pragma D option quiet
BEGIN { x = -1000; y = 0x7fffffffffffffff; z = 4096 + 9 * 512 - 1; }
BEGIN
{
	@q = quantize(x);
	@q = quantize(x * 0);
	@q = quantize(-x, x);
	@sd = stddev(y);
	@sd = stddev(-y);
	@ll = llquantize(z, 4, 4, 6, 32, x);
	@ll = llquantize(-z, 4, 4, 6, 32);
	@l = lquantize(x, -2000, 2000, 100, 3);
	exit(0);
}
