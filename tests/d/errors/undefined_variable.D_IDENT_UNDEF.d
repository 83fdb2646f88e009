BEGIN
{
	exit(x);
}
