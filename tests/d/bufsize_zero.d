/* A principal buffer of no bytes holds no record. */
#pragma D option bufsize=0

BEGIN
{
	exit(0);
}
