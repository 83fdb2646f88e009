/* quantize()'s increment is an integer */
BEGIN
{
	@ = quantize(1, "");
}
