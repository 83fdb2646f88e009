BEGIN
{
	nothing -= trace(1);
	exit(0);
}
