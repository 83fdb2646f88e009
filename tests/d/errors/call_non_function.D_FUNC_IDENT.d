/* tick-1() reads as tick - 1(): 1 is no function */
BEGIN
{
	@ = tick-1();
}
