void nothing;

BEGIN
{
	nothing = 1;
	exit(0);
}
