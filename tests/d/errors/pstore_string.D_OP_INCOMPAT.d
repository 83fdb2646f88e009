/* a string stored through an int pointer */
BEGIN
{
	p = (int *)alloca(4);
	*p = "four";
}
