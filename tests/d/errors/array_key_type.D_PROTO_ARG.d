/* an array keeps its key types */
BEGIN
{
	x[123, "foo"] = timestamp;
}

END
{
	x[123, 456] = timestamp;
}
