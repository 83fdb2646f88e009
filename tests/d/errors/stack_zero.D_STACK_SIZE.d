BEGIN
{
	stack(0);
}
