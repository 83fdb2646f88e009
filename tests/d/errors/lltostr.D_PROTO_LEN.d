/* lltostr() with the wrong number of arguments */
#pragma D option quiet

BEGIN
{
	printf("%s\n", lltostr());
	exit(0);
}
