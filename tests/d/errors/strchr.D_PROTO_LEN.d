/* strchr() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strchr("abc"));
	exit(0);
}
