/* a second llquantize() of @ with another factor */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 10);
	@ = llquantize(1, 2, 0, 2, 2);
}
