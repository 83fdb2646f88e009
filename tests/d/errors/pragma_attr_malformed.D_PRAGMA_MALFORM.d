/* attributes then the identifier they are for */
#pragma D attributes Stable/Stable/Common
BEGIN
{
	exit(0);
}
