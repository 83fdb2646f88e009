/* D's own type names and constants need no declaration; a global of a
 * struct type may be declared (and is typed by its first assignment). */
#pragma D option quiet

struct coords {
	int x, y;
};
struct coords unused;

BEGIN
{
	printf("%u %u %d %d\n", (uchar_t)300, (ushort_t)70000, SIGKILL, ENOENT);
	exit(0);
}
