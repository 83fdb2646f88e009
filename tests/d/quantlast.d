/* dtrace-utils' aggs/tst.quantlast.d: the last positive bucket of
 * quantize(), reached with an increment; printed at exit. */
#pragma D option quiet

BEGIN
{
	@ = quantize(0x4000000000000000, 1234);
	exit(0);
}
