/* lquantize()'s base must be below its limit */
BEGIN
{
	@ = lquantize(1, 10, 10);
}
