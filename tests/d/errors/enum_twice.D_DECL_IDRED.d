/* an enumerator is declared once */
enum colors {
	RED,
	GREEN
};

enum shades {
	RED
};

BEGIN
{
	exit(0);
}
