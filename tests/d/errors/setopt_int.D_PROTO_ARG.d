/* setopt() takes strings */
BEGIN
{
	setopt("quiet", 1);
}
