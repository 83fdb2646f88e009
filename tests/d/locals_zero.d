/* Clause-locals hold 0 until stored (++this->x is 1, this->y++ is 0);
 * "self a, b;" declares ints; a thread-local or an element only ever
 * assigned 0 (which frees it) reads as 0. */
#pragma D option quiet

self a, b;
this c;

BEGIN
{
	printf("%d %d\n", ++this->x, this->y++);
	self->a = 7;
	printf("%d %d %d\n", self->a, self->b, this->c);
	self->z = 0;
	arr[1] = 0;
	printf("%d %d\n", self->z, arr[1]);
	exit(0);
}
