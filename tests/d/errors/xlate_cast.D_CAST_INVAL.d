/* a pointer to translated data is no address to cast */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > { x = p->a; };

BEGIN { trace((uintptr_t)xlate <struct out *> ((struct in *)0)); exit(0); }
