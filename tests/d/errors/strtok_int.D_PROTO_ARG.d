/* strtok() of a number other than NULL */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok(1, ","));
	exit(0);
}
