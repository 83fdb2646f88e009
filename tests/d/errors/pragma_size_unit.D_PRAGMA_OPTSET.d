#pragma D option specsize=1b
BEGIN
{
	exit(0);
}
