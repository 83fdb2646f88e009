/* D's own aggregations at exit: stddev() (DTrace's integer formula over
 * count, sum and a 128-bit sum of squares: the +-(2^63 - 1) pair needs
 * all 128 bits), quantize() with DTrace's negative buckets (-3 counts
 * at -2, -1000 at -512, INT64_MIN at the lowest), lquantize()'s default
 * step with an increment, llquantize() on both sides of zero, and keys. */
#pragma D option quiet

BEGIN
{
	@sd = stddev(1);
	@sd = stddev(2);
	@sd = stddev(3);
	@sd = stddev(10);
	@big = stddev(0x7fffffffffffffff);
	@big = stddev(-0x7fffffffffffffff);
	@k["x"] = stddev(-4);
	@k["x"] = stddev(4);
	@k["y"] = stddev(100);
	@q = quantize(-1);
	@q = quantize(-3);
	@q = quantize(-1000);
	@q = quantize(0);
	@q = quantize(7, 3);
	@min = quantize(-0x7fffffffffffffff - 1);
	@l = lquantize(3, 0, 5);
	@l = lquantize(9, 0, 5, 1, 2);
	@l = lquantize(-1, 0, 5);
	@ll = llquantize(5, 10, 0, 2, 10);
	@ll = llquantize(55, 10, 0, 2, 10);
	@ll = llquantize(-555, 10, 0, 2, 10);
	@ll = llquantize(5000, 10, 0, 2, 10);
	exit(0);
}
