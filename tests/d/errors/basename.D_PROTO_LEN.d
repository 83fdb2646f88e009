/* basename() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", basename());
	exit(0);
}
