/* a member declared twice */
struct foo {
	int x;
	char x;
};

BEGIN
{
	exit(0);
}
