BEGIN
{
	trace($-1);
}
