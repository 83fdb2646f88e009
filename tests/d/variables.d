/* D's kinds of variables: a global, an associative array with a tuple
 * key, a thread-local (freed when assigned 0), a clause-local, an
 * inline constant; and the probe's four D names. */
#pragma D option quiet

inline int LIMIT = 3;

BEGIN
{
	x = 5;
	a["foo", 2] = 7;
	self->t = 3;
	this->v = x + a["foo", 2] + self->t + LIMIT;
	printf("%d %s:%s:%s:%s\n", this->v, probeprov, probemod, probefunc,
	    probename);
	self->t = 0;
	printf("%d %d\n", self->t, a["bar", 1]);
	exit(0);
}
