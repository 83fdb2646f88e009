struct point {
	int x;
};
struct point *pp;

BEGIN
{
	trace(pp.x);
	exit(0);
}
