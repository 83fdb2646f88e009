BEGIN
{
	exit(0;
}
