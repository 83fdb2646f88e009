/* strjoin() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strjoin("a"));
	exit(0);
}
