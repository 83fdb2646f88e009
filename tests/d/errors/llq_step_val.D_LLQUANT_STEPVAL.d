/* llquantize()'s steps below the factor must divide it */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, 3);
}
