/* an aggregation is no key */
BEGIN
{
	@a = count(); @[@a] = count();
}
