/* each member assigned must be one of the output's */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > {
	x = p->a;
	y = p->a;
};

BEGIN { exit(0); }
