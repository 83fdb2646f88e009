/* an array keeps its number of keys */
BEGIN
{
	x[123, "foo"] = timestamp;
}

END
{
	x[123] = timestamp;
}
