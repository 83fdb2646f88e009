/* no option is negative */
#pragma D option specsize=-40
BEGIN
{
	exit(0);
}
