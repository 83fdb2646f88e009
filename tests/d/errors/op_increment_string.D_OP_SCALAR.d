/* ++ takes a scalar */
BEGIN
{
	s = "a"; s++;
}
