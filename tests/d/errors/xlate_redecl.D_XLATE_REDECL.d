/* one translator per pair of types */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > { x = p->a; };
translator struct out < struct in *q > { x = q->a + 1; };

BEGIN { exit(0); }
