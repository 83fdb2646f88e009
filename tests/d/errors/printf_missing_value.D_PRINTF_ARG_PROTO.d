/* the width takes the only argument */
BEGIN
{
	printf("%*d", 1);
}
