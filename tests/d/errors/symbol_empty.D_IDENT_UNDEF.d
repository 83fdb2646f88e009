/* a backquote names a kernel symbol */
BEGIN
{
	trace(`);
}
