/* lquantize()'s base must be an integer constant */
BEGIN
{
	@ = lquantize(1, pid, 10);
}
