/* an int inline is given an int */
inline int i = "a string";

BEGIN
{
	exit(0);
}
