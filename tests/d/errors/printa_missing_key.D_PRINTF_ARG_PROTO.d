/* two key conversions for one key */
BEGIN
{
	@[1] = count();
	printa("%d %d %@d\n", @);
	exit(0);
}
