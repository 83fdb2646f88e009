/* a declared clause-local keeps its type */
this int x;

BEGIN
{
	this->x = "dummy";
}
