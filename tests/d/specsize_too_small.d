/* A speculation buffer too small for any record: dtrace cannot enable
 * tracing. */
#pragma D option specsize=7

BEGIN
{
	exit(0);
}
