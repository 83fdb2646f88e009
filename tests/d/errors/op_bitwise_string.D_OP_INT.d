/* bitwise operators take integers */
BEGIN
{
	x = "a" & "b";
}
