BEGIN
{
	trace(&1);
}
