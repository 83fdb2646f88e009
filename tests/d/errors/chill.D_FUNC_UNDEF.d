/* chill() is not available */
BEGIN
{
	chill(1);
}
