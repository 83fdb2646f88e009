/* a second lquantize() of @ with another base */
BEGIN
{
	@ = lquantize(1, 0, 10, 1);
	@ = lquantize(1, 1, 10, 1);
}
