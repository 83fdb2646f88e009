#pragma D option quiet=please
BEGIN
{
	exit(0);
}
