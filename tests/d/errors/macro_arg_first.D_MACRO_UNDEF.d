BEGIN
{
	print("%d %d\n", $1, $2);
}
