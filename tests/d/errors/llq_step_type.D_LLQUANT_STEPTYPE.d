/* llquantize()'s steps must be an integer constant */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, cpu);
}
