/* dirname() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", dirname("a", "b"));
	exit(0);
}
