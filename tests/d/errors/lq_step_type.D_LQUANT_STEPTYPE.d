/* lquantize()'s step must be a positive integer constant */
BEGIN
{
	@ = lquantize(1, 0, 10, 0);
}
