/* a second llquantize() of @ with another low magnitude */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 10, 1, 2, 10);
}
