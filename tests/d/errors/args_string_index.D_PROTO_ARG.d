/* args[ ] takes an integer index */
BEGIN
{
	trace(args["a"]);
}
