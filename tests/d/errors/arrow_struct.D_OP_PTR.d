struct point {
	int x;
} pt;

BEGIN
{
	pt->x = 1;
	exit(0);
}
