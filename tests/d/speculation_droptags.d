/* -x droptags: the drops said at the end name their kind, as dtrace's
 * [DTRACEDROP_SPECUNAVAIL] (nspec is 1: the second speculation()
 * finds none free). */
#pragma D option quiet

BEGIN
{
	a = speculation();
	b = speculation();
	printf("%d %d\n", a, b);
	exit(0);
}
