/* an empty format */
BEGIN
{
	printf("");
}
