/* && takes scalars */
BEGIN
{
	x = "a" && "b";
}
