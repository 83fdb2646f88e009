/* llquantize()'s low magnitude must be below 2^16 (a negative one is not) */
BEGIN
{
	@ = llquantize(1, 10, -1, 1, 10);
}
