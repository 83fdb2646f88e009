/* chill() is checked against its prototype first */
BEGIN
{
	chill("badarg");
}
