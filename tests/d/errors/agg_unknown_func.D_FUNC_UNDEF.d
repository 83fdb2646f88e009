/* a name no function has, as an aggregation's value */
BEGIN
{
	@counts["x"] = foo();
}
