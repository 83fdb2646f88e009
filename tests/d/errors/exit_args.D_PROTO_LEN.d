/* exit() takes one argument */
BEGIN
{
	exit(0, 1);
}
