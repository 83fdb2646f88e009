/* the output struct must be defined */
struct in { int a; };

translator struct nowhere < struct in *p > {
	x = p->a;
};

BEGIN { exit(0); }
