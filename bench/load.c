/* load [N [WAIT_MS [GAP_US]]]: call getppid() N times (default a
 * million), as fast as it can or GAP_US microseconds apart, then print
 * the elapsed time; the workload of the event benchmarks.  N = 0 calls
 * until killed. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	long gap = argc > 3 ? atol(argv[3]) : 0;
	struct timespec a, b;

	/* give the tracer time to attach first */
	usleep(argc > 2 ? atoi(argv[2]) * 1000 : 300000);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; n == 0 || i < n; i++) {
		syscall(SYS_getppid);
		if (gap)
			usleep((useconds_t)gap);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%ld calls in %.3f s\n", n,
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
