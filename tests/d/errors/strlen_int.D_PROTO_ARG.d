/* strlen() takes a string */
BEGIN
{
	strlen(12);
}
