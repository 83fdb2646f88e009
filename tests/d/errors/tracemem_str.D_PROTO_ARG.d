BEGIN
{
	tracemem(123, "four");
}
