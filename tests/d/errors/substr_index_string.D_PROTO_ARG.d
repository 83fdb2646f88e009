/* substr()'s index is an int */
BEGIN
{
	trace(substr(probename, "a"));
}
