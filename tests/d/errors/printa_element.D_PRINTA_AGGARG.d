/* printa() takes a whole aggregation */
BEGIN
{
	@a[1] = count(); printa(@a[1]);
}
