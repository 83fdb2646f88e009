/* discard(): the speculation's records never print; its id is free
 * again (speculation() gives it to the next asking). */
#pragma D option quiet

BEGIN
{
	spec = speculation();
	printf("speculation %d\n", spec);
}

BEGIN
{
	speculate(spec);
	printf("discarded\n");
}

BEGIN
{
	discard(spec);
}

BEGIN
{
	printf("speculation again %d\n", speculation());
	exit(0);
}
