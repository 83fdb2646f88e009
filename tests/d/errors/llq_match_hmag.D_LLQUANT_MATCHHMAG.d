/* a second llquantize() of @ with another high magnitude */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 10, 0, 3, 10);
}
