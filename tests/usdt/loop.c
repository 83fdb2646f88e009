/* loop.c - a PIE with a guarded probe, for -p: ticks COUNT times (0:
 * until SIGTERM), DELAY_MS apart, then writes to OUT how many ticks
 * found the probe enabled, when the first and last did, and how many
 * ticks there were.
 *
 *   loop COUNT DELAY_MS OUT
 */
#include <sonde/sdt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

SONDE_SEMAPHORE(loop, tick);

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 3;
	int delay = argc > 2 ? atoi(argv[2]) : 0;
	FILE *out = argc > 3 ? fopen(argv[3], "w") : stdout;
	struct timespec ts = { delay / 1000, (delay % 1000) * 1000000L };
	int enabled = 0, first = -1, last = -1, i;

	if (!out)
		return 1;
	signal(SIGTERM, on_term);
	for (i = 0; !stop && (count == 0 || i < count); i++) {
		if (SONDE_ENABLED(loop, tick)) {
			SONDE_PROBE_SEM(loop, tick, i);
			enabled++;
			if (first < 0)
				first = i;
			last = i;
		}
		nanosleep(&ts, NULL);
	}
	fprintf(out, "enabled %d first %d last %d of %d\n", enabled, first, last,
		i);
	return 0;
}
