/* a clause-local indexed before it holds a pointer is an associative
 * array, which clause-locals cannot be */
BEGIN
{
	this->x[1] = 2;
	this->x = (int *)alloca(8);
}
