/* llquantize()'s factor must be an integer constant */
BEGIN
{
	@ = llquantize(1, pid, 0, 1, 2);
}
