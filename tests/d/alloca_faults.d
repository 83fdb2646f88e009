/* Scratch memory that no alloca() of the clause gave is an invalid
 * address: a store past the allocated bytes, a read before them, a
 * bcopy() that does not fit, a read of what a previous clause
 * allocated; more than scratchsize is "out of scratch space".  Each
 * stops its clause and runs ERROR. */
#pragma D option quiet
#pragma D option scratchsize=64

BEGIN
{
	s = (char *)alloca(15);
	s[16] = 65;
	printf("not reached\n");
}

BEGIN
{
	s = (char *)alloca(8);
	trace(*(s - 1));
}

BEGIN
{
	s = (char *)alloca(4);
	bcopy("0123456789", s, 9);
}

BEGIN
{
	trace(*s);
}

BEGIN
{
	n = 65;
	alloca(n);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
