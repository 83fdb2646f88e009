/* char and int do not combine */
BEGIN
{
	i = (char int)0;
}
