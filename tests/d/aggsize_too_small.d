/* An aggregation buffer (-x aggsize) too small for one row: dtrace
 * cannot enable tracing, and says so after the probes matched. */
#pragma D option aggsize=8

BEGIN
{
	@ = count();
	exit(0);
}
