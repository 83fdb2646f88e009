/* a translator's output must be a struct or a union */
struct in { int a; };
enum colour { RED, BLUE };

translator enum colour < struct in *p > {
};

BEGIN { exit(0); }
