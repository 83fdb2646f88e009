/* llquantize()'s low magnitude must be an integer constant */
BEGIN
{
	@ = llquantize(1, 10, "0", 1, 10);
}
