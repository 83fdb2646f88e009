/* llquantize()'s high magnitude must be at least the low one */
BEGIN
{
	@ = llquantize(1, 10, 3, 2, 10);
}
