struct point {
	int x, y;
};
struct point g;

BEGIN
{
	g.x = "text";
	exit(0);
}
