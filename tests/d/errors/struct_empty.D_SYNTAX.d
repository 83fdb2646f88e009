/* a D struct has members */
struct empty {
};

BEGIN
{
	exit(0);
}
