/* Aggregations as DTrace prints them at exit: a blank line (even when
 * quiet), then each aggregation printa() did not print, rows sorted by
 * value then key; quantize and lquantize tables. */
#pragma D option quiet

BEGIN
{
	@c["b"] = count();
	@c["a"] = count();
	@c["b"] = count();
	@s[1, "x"] = sum(10);
	@s[2, "y"] = sum(-3);
	@a = avg(4);
	@a = avg(7);
	@mn = min(5);
	@mn = min(-2);
	@mx = max(5);
	@mx = max(9);
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(5);
	@q = quantize(5);
	@q = quantize(1000);
	@l = lquantize(3, 0, 10, 2);
	@l = lquantize(-1, 0, 10, 2);
	@l = lquantize(12, 0, 10, 2);
	@p = count();
	printa(@p);
	exit(0);
}
