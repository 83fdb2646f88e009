/* an action has no value to negate */
BEGIN
{
	p = 123 + -trace(0);
}
