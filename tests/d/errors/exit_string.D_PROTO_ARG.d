/* exit() takes an int */
BEGIN
{
	exit("");
}
