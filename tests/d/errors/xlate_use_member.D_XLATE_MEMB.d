/* a member the translator does not define cannot be read */
struct in { int a; };
struct out { int x; int y; };

translator struct out < struct in *p > {
	x = p->a;
};

BEGIN { trace(xlate <struct out *> ((struct in *)0)->y); exit(0); }
