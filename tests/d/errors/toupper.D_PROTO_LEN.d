/* toupper() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", toupper("a", "b"));
	exit(0);
}
