/* an aggregation used with two aggregating functions */
BEGIN
{
	@a = quantize(1);
	@a = lquantize(1, 0, 10);
}
