/* a D enum has enumerators */
enum empty {
};

BEGIN
{
	exit(0);
}
