/* an inline cannot use itself */
inline int foo = foo + 3;

BEGIN
{
	exit(0);
}
