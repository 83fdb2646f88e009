/* an aggregation assigned a subroutine's value */
BEGIN
{
	@a = strlen("abc");
}
