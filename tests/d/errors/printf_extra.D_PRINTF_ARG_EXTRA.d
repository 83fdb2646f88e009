/* more values than conversions (%? takes none) */
BEGIN
{
	printf("%?d\n", 1, 2);
}
