/* a declaration names something */
extern int;

BEGIN
{
	exit(0);
}
