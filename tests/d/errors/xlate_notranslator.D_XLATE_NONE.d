/* no translator to the type at all */
struct out { int x; };

BEGIN { trace(xlate <struct out *> (1)->x); }
