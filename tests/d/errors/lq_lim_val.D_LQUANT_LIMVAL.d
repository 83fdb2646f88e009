/* lquantize()'s limit must fit 32 bits */
BEGIN
{
	@ = lquantize(1, 0, 0x80000000);
}
