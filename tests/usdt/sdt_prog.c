/* sdt_prog.c - probes placed with include/sonde/sdt.h: no arguments,
 * twelve of every integer type, strings, expressions and a probe
 * guarded by its semaphore, which writes how often it found the probe
 * enabled to the file argv[1] (stdout without).  tests/run/usdt_sdt_h.sh
 * builds it with several compilers and levels of optimisation (as C
 * and C++). */
#include <sonde/sdt.h>
#include <stdio.h>
#include <unistd.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

SONDE_SEMAPHORE(sdt, guarded);

enum color { RED = 1, GREEN = 2 };

/* volatile: values the compiler cannot fold into constants */
static volatile int opaque = 3;

int main(int argc, char **argv)
{
	char name[16];
	signed char sc = -100;
	unsigned char uc = 200;
	short s = -30000;
	unsigned short us = 60000;
	int i = -2000000000;
	unsigned u = 4000000000u;
	long l = -9000000000000000000L;
	unsigned long ul = 18000000000000000000UL;
	long long ll = -1;
	bool b = true;
	enum color c = GREEN;
	char ch = 'A';
	int n = opaque, enabled = 0;
	FILE *out = argc > 1 ? fopen(argv[1], "w") : stdout;

	snprintf(name, sizeof(name), "probe-%d", n);
	SONDE_PROBE(sdt, none);
	SONDE_PROBE(sdt, ints, sc, uc, s, us, i, u, l, ul, ll, b, c, ch);
	SONDE_PROBE(sdt, strs, name, argv[0], &name[6]);
	SONDE_PROBE(sdt, exprs, n + 1, n * -2, (short)(n - 10), opaque);
	for (int k = 0; k < 3; k++) {
		if (SONDE_ENABLED(sdt, guarded)) {
			enabled++;
			SONDE_PROBE_SEM(sdt, guarded, k, enabled);
		}
	}
	if (!out)
		return 1;
	fprintf(out, "enabled %d\n", enabled);
	return 0;
}
