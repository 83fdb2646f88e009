BEGIN
{
	p = alloca();
}
