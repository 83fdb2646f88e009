/* the translator reads a member its input does not have */
struct in { int a; };
struct out { int x; };

translator struct out < struct in *p > {
	x = ((struct in *)p)->missing;
};

BEGIN { exit(0); }
