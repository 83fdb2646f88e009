/* compute.c - deterministic work with many function calls, for the test
 * that tracing leaves a program's behaviour alone: recursion, a qsort
 * comparator called back from libc, string hashing, and a static probe
 * with a semaphore.  Prints its results and exits 3.
 *
 * usage: compute [N]
 */
#include <sonde/sdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SONDE_SEMAPHORE(compute, step);

__attribute__((noinline)) static unsigned long fib(unsigned n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

__attribute__((noinline)) static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

int main(int argc, char **argv)
{
	static char buf[64][16];
	char *words[64];
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 20, h = 0;

	for (int i = 0; i < 64; i++) {
		snprintf(buf[i], sizeof(buf[i]), "w%u", (i * 37u) % 101u);
		words[i] = buf[i];
	}
	qsort(words, 64, sizeof(words[0]), cmp);
	for (int i = 0; i < 64; i++) {
		h ^= hash_str(words[i]) + (unsigned)i;
		if (SONDE_ENABLED(compute, step))
			SONDE_PROBE_SEM(compute, step, i, words[i]);
	}
	printf("fib(%u) = %lu\n", n, fib(n));
	printf("first %s last %s hash %08x\n", words[0], words[63], h);
	return 3;
}
