/* loadgen.c - the load generator of the stress tests (tests/stress/run.sh).
 *
 * usage: loadgen [wait] ACTION...
 *   wait              block until SIGUSR1 first (tests/progs/wait.h)
 *   keys N REPEAT     REPEAT rounds of getpgid(BASE + i) for i in 0..N-1:
 *                     N distinct values of args->pid, each REPEAT times
 *                     (BASE is 100,000,000, above any pid: ESRCH)
 *   rate PERSEC SECS  getpgid(BASE + k) for k = 0, 1, ... at PERSEC calls
 *                     a second for SECS seconds; prints "events K" (the
 *                     number made) on stdout at the end
 *   forkexec N PATH ARG...
 *                     N times: fork, exec PATH with ARG... in the child,
 *                     wait for it (it must exit 0)
 *   spin US           run on the CPU for US microseconds in spin_here()
 *                     (what an exec'd child does, so that a profile
 *                     probe catches short-lived processes in user code)
 * Actions run in order.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../progs/wait.h"

#define BASE 100000000L

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void need(int argc, int i, int n, const char *what)
{
	if (i + n >= argc) {
		fprintf(stderr, "%s needs %d argument%s\n", what, n,
			n == 1 ? "" : "s");
		exit(2);
	}
}

/* Paced in steps of 1 ms: a step's share of calls at once, then sleep
 * until the next step, so a slow machine makes fewer calls, never a
 * burst to catch up: the count printed is what was made. */
static long rate(long persec, long secs)
{
	int64_t start = now_ns(), end = start + secs * 1000000000;
	int64_t step = 1000000;
	long made = 0;

	for (int64_t t = start; t < end; t += step) {
		int64_t now;
		long due = (long)((t - start + step) / 1000 * persec / 1000000);

		while (made < due)
			syscall(SYS_getpgid, BASE + made++);
		now = now_ns();
		if (now < t + step) {
			struct timespec ts = { 0, (long)(t + step - now) };

			nanosleep(&ts, NULL);
		} else if (now > t + 50 * step) {
			t = now - step;		/* fell behind: skip ahead */
		}
	}
	return made;
}

/* The clock is read every 10,000 turns only, so that a profile sample
 * lands in this function itself, whose frame pointer leads back to
 * main (libc's clock_gettime has none: a stack walked from there ends
 * in garbage). */
__attribute__((noinline)) static void spin_here(long us)
{
	int64_t end = now_ns() + us * 1000;

	while (now_ns() < end)
		for (volatile int k = 0; k < 10000; k++)
			;
}

static void forkexec(long n, char **argv)
{
	for (long k = 0; k < n; k++) {
		pid_t child = fork();
		int st;

		if (child < 0) {
			perror("fork");
			exit(1);
		}
		if (child == 0) {
			execv(argv[0], argv);
			perror(argv[0]);
			_exit(127);
		}
		if (waitpid(child, &st, 0) != child || st != 0) {
			fprintf(stderr, "child %ld: status %d\n", k, st);
			exit(1);
		}
	}
}

int main(int argc, char **argv)
{
	int i = 1;

	wait_maybe(argc, argv, &i);
	while (i < argc) {
		const char *a = argv[i];

		if (!strcmp(a, "keys")) {
			long n, rep;

			need(argc, i, 2, a);
			n = num_arg(argv[i + 1]);
			rep = num_arg(argv[i + 2]);
			for (long r = 0; r < rep; r++)
				for (long k = 0; k < n; k++)
					syscall(SYS_getpgid, BASE + k);
			i += 3;
		} else if (!strcmp(a, "rate")) {
			long made;

			need(argc, i, 2, a);
			made = rate(num_arg(argv[i + 1]), num_arg(argv[i + 2]));
			printf("events %ld\n", made);
			fflush(stdout);
			i += 3;
		} else if (!strcmp(a, "forkexec")) {
			need(argc, i, 2, a);
			forkexec(num_arg(argv[i + 1]), argv + i + 2);
			return 0;	/* the rest was the child's argv */
		} else if (!strcmp(a, "spin")) {
			need(argc, i, 1, a);
			spin_here(num_arg(argv[i + 1]));
			i += 2;
		} else {
			fprintf(stderr, "unknown action '%s'\n", a);
			return 2;
		}
	}
	return 0;
}
