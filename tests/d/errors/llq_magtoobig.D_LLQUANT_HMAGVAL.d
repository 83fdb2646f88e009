/* factor^(high + 1) must fit 63 bits */
BEGIN
{
	@ = llquantize(1, 10, 0, 19, 10);
}
