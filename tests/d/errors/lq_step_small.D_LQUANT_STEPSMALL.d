/* lquantize() has 65535 levels at most */
BEGIN
{
	@ = lquantize(1, 0, 100000, 1);
}
