/* substr() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", substr("abc"));
	exit(0);
}
