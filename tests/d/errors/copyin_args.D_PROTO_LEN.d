/* copyin takes an address and a size */
BEGIN
{
	trace(copyin(0));
}
