/* offsetof of a struct or union */
BEGIN
{
	trace(offsetof(int, x));
}
