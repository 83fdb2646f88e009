/* llquantize()'s high magnitude must be an integer constant */
BEGIN
{
	@ = llquantize(1, 10, 0, tid, 10);
}
