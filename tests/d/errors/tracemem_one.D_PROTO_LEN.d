BEGIN
{
	tracemem(123);
}
