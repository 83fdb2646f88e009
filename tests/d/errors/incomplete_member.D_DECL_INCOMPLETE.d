struct outer {
	struct nowhere_defined inner;
	int x;
};
struct outer o;

BEGIN
{
	o.x = 1;
	exit(0);
}
