/* llquantize()'s steps may not be 0 */
BEGIN
{
	@ = llquantize(timestamp, 10, 0, 6, 0);
}
