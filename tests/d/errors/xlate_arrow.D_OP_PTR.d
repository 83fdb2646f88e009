/* -> of a translation that is no pointer */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > { x = p->a; };

BEGIN { trace(xlate <struct out> ((struct in *)0)->x); }
