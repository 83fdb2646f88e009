/* an action is no aggregating function, known or not */
BEGIN
{
	@c["x"] = breakpoint();
}
