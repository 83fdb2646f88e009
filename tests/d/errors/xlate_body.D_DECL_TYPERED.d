/* braces where the input's angle brackets belong define the output
 * struct again */
struct out { int x; };

translator struct out
{
	int *p
}
{
	x = 1;
};

BEGIN { exit(0); }
