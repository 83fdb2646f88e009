/* attributes of an identifier the program does not define */
#pragma D attributes Stable/Stable/Common nothing
BEGIN
{
	exit(0);
}
