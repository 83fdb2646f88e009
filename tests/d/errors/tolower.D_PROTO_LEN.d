/* tolower() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", tolower());
	exit(0);
}
