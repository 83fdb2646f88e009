/* llquantize()'s factor must be 2 to 65535 */
BEGIN
{
	@ = llquantize(1, 1, 0, 1, 1);
}
