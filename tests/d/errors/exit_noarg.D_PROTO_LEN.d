/* D's exit() takes the exit status */
BEGIN
{
	exit();
}
