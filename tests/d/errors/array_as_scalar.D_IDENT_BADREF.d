/* an associative array is no scalar */
BEGIN
{
	a[0] = 1; trace(sizeof(a));
}
