/* "this x;" declares an int, as in old C: no string fits it */
this x;

BEGIN
{
	this->x = execname;
	exit(0);
}
