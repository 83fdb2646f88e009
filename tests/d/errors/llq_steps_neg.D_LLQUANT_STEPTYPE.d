/* llquantize()'s steps is not negative */
BEGIN
{
	@ = llquantize(1, 10, 0, 6, -1);
}
