/* $$1 given no argument */
BEGIN
{
	trace($$1);
}
