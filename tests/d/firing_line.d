/* Not quiet, each firing prints its line: under _DTRACE_TESTING only
 * FUNCTION:NAME (the CPU and ID columns vary), then the clause's
 * output, then a newline; the header comes once, before the first. */
BEGIN
{
	printf("hello %d", 42);
}

BEGIN
{
	exit(0);
}
