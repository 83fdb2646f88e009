/* no type is short and long */
BEGIN
{
	i = (long short)0;
}
