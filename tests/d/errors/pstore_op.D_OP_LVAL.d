/* a store through a pointer takes = only */
BEGIN
{
	p = (int *)alloca(4);
	*p += 1;
}
