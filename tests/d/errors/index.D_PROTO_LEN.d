/* index() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", index("abc", "b", 1, 2));
	exit(0);
}
