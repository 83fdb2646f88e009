/* an undefined conversion in printa's format */
BEGIN
{
	@[1] = count();
	printa("%q %@d\n", @);
	exit(0);
}
