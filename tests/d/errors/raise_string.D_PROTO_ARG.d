/* raise() takes a signal number */
BEGIN
{
	raise("badarg");
}
