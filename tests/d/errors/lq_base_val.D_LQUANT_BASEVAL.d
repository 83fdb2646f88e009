/* lquantize()'s base must fit 32 bits */
BEGIN
{
	@ = lquantize(1, -0x100000000, 10);
}
