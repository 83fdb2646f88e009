/* lquantize()'s step must leave one level at least */
BEGIN
{
	@ = lquantize(1, 0, 10, 20);
}
