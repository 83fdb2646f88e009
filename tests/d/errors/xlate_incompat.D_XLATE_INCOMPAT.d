/* a pointer member given a char */
struct in { int a; char c; };
struct out { int x; char *s; };

translator struct out < struct in *p > {
	x = p->a;
	s = p->c;
};

BEGIN { exit(0); }
