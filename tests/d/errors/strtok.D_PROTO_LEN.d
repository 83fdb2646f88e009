/* strtok() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok("a,b", ",", 1));
	exit(0);
}
