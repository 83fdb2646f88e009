/* a stack key prints only with %k */
BEGIN
{
	@[ustack()] = count();
	printa("%p %@d\n", @);
	exit(0);
}
