/* trace() when not quiet: each integer size its own width (as
 * dtrace-utils prints them), a string left-aligned; the firing line
 * first (FUNCTION:NAME only, under _DTRACE_TESTING). */
BEGIN
{
	trace((int8_t)-1);
	trace((int16_t)-1);
	trace((int32_t)-1);
	trace((int64_t)-1);
	trace((uint8_t)255);
	trace((uint64_t)7);
	trace("str");
	exit(0);
}
