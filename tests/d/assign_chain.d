/* C's chained assignment: right to left, each taking the value its
 * right neighbour now holds; D's clause-locals are the clause's, not a
 * block's. */
#pragma D option quiet

BEGIN
{
	old = a["a"] = 42;
	val = a["a"]--;
	b = c = self->d = 7;
	if (b) {
		this->z = 5;
	}
	printf("%d %d %d %d %d %d %d\n", old, a["a"], val, b, c, self->d,
	    this->z);
	exit(0);
}
