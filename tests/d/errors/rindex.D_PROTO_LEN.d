/* rindex() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", rindex("abc"));
	exit(0);
}
