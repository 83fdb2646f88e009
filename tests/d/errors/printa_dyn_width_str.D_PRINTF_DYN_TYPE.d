/* a '*' width takes a key, which must be an integer */
BEGIN
{
	@[execname, 5] = count();
	printa("%*d %@d\n", @);
	exit(0);
}
