BEGIN
{
	nosuchfunction(1);
	exit(0);
}
