/* lquantize()'s limit must be an integer constant */
BEGIN
{
	@ = lquantize(1, 0, "10");
}
