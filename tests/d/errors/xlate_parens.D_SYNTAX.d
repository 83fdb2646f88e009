/* the input goes in angle brackets, not parentheses */
struct in { int a; };
struct out { int x; };

translator struct out ( struct in *p )
{
	x = p->a;
};

BEGIN { exit(0); }
