nosuchprovider:::start
{
	exit(0);
}
