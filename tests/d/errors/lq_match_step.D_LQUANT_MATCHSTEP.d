/* a second lquantize() of @ with another step (the default, 1) */
BEGIN
{
	@ = lquantize(1, 0, 10, 2);
	@ = lquantize(1, 0, 10);
}
