/* in a script file, a probe description needs a predicate or actions
 * after it (a '#define' missing its '#' reads as one) */
define VALUE 5

BEGIN
{
	exit(0);
}
