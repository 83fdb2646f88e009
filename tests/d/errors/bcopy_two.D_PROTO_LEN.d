BEGIN
{
	p = alloca(4);
	bcopy("ab", p);
}
