/* an assignment is an expression, as in C: its value is what it
 * stored (in a predicate too); a clause-local holding a pointer is
 * indexed, not an associative array */
#pragma D option quiet
BEGIN
/(this->x = 5) && this->x == 5/
{
	y = (z = 3) + 1;
	a[1] = 2;
	w = (a[1] += 4) * 2;
	printf("%d %d %d %d %d\n", this->x, y, z, a[1], w);
	this->p = (int *)alloca(2 * sizeof(int));
	this->p[0] = 7;
	this->p[1] = (v = 8);
	printf("%d %d %d\n", this->p[0], this->p[1], v);
	exit(0);
}
