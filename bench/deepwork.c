/* deepwork SECONDS [DEPTH]: spin for SECONDS in a call chain DEPTH deep
 * (default 24), built without frame pointers (bench/stacks.sh compiles
 * it -O2 -fomit-frame-pointer), then print the chains completed: the
 * workload of the stack-sampling rows. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static int depth = 24;

__attribute__((noinline)) static unsigned long spin(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}

__attribute__((noinline)) static unsigned long chain(int n, unsigned long x)
{
	volatile unsigned long pad[4] = { x, x + 1, x + 2, (unsigned long)n };

	if (n == 0)
		return spin(x);
	return chain(n - 1, x + pad[n & 3]) + pad[0];
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec a, b;
	unsigned long n = 0;

	if (argc > 2)
		depth = atoi(argv[2]);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100; i++, n++)
			sink += chain(depth, n);
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) +
		 (double)(b.tv_nsec - a.tv_nsec) / 1e9 < secs);
	printf("%lu\n", n);
	return 0;
}
