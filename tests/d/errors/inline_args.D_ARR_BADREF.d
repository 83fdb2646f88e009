inline int add[int x, int y] = x + y;

BEGIN
{
	trace(add[1]);
}
