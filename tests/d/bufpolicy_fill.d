/* bufpolicy=fill: once the records would fill the buffer (bufsize,
 * counted in sonde's own records: 16 bytes for this printf), tracing
 * stops as exit() stops it, the record that did not fit is dropped,
 * and END runs. */
#pragma D option quiet
#pragma D option bufpolicy=fill
#pragma D option bufsize=256

tick-1ms
{
	printf("%d\n", i++);
}

END
{
	printf("end\n");
}
