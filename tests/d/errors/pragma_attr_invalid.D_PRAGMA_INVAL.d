/* stability/stability/class: names DTrace knows */
inline int foo = 1;
#pragma D attributes Solid/Stable/Common foo
BEGIN
{
	exit(0);
}
