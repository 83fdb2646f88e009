/* args[ ] has no elements in BEGIN */
BEGIN
{
	trace(args[0]);
}
