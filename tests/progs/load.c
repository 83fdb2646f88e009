/* load.c - a trigger for the perf-event probe tests (profile, software).
 *
 * usage: load [wait] ACTION...
 *   wait          block until SIGUSR1 first (see wait.h)
 *   spin MS       run on the CPU for MS milliseconds of wall time,
 *                 making no system calls (clock_gettime is the vDSO)
 *   touch PAGES   map PAGES fresh anonymous pages and write one byte
 *                 to each: at least PAGES page faults
 *   cpu N         from now on run on CPU N only
 * Actions run in order.
 */
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "wait.h"

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	int i = 1;

	wait_maybe(argc, argv, &i);
	while (i < argc) {
		const char *a = argv[i];
		long n;

		if (i + 1 >= argc) {
			fprintf(stderr, "%s needs an argument\n", a);
			return 2;
		}
		n = num_arg(argv[i + 1]);
		if (!strcmp(a, "spin")) {
			int64_t end = now_ns() + (int64_t)n * 1000000;
			volatile uint64_t x = 0;

			while (now_ns() < end)
				for (int k = 0; k < 1000; k++)
					x += (uint64_t)k;
		} else if (!strcmp(a, "touch")) {
			volatile char *p = mmap(NULL, (size_t)(n * page),
						PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED) {
				perror("mmap");
				return 1;
			}
			for (long k = 0; k < n; k++)
				p[k * page] = 1;
		} else if (!strcmp(a, "cpu")) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)n, &set);
			if (sched_setaffinity(0, sizeof(set), &set)) {
				perror("sched_setaffinity");
				return 1;
			}
		} else {
			fprintf(stderr, "unknown action '%s'\n", a);
			return 2;
		}
		i += 2;
	}
	return 0;
}
