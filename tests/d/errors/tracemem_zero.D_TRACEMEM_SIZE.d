BEGIN
{
	tracemem(123, 0);
}
