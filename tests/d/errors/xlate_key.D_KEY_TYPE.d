BEGIN
{
	@a[curpsinfo] = count();
}
