/* a struct where the translator takes a pointer to it */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > { x = p->a; };

struct in v;

BEGIN { trace(xlate <struct out *> (v)->x); exit(0); }
