/* a string key through %d */
BEGIN
{
	@[execname] = count();
	printa("%d %@d\n", @);
	exit(0);
}
