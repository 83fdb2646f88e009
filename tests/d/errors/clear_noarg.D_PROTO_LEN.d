/* clear() takes one argument */
BEGIN
{
	clear();
}
