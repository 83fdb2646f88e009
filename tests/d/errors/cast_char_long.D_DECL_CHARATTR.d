/* char takes no short or long */
BEGIN
{
	i = (char long)0;
}
