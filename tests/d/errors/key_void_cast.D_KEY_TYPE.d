/* a void value is no key */
BEGIN
{
	@a[1, (void)0] = count();
}
