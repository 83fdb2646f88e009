/* a second lquantize() of @ with another limit */
BEGIN
{
	@ = lquantize(1, 0, 10, 1);
	@ = lquantize(1, 0, 20, 1);
}
