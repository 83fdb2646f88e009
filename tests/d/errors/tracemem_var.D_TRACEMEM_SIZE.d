/* the size must be a constant */
BEGIN
{
	n = 4;
	tracemem(123, n);
}
