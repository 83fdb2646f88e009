/* strrchr() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strrchr("abc", 'a', 1));
	exit(0);
}
