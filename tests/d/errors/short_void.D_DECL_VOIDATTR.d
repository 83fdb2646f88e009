short void p;

BEGIN
{
	exit(0);
}
