/*
 * program.c - a small program with its own USDT provider (provider.d).
 *
 * It "serves" COUNT requests (default 10), DELAY_MS apart (default
 * 100), from a list of paths, and fires myapp:request__start and
 * myapp:request__done for each.  myapp:cache__stats is guarded by its
 * _ENABLED() test, so its arguments are only computed while traced.
 *
 *   make && make trace
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "provider.h"

static const char *const paths[] = {
	"/index.html", "/about.html", "/missing", "/index.html", "/style.css",
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A pretend cache: a path seen before is a hit. */
static int seen[sizeof(paths) / sizeof(paths[0])];

static uint64_t count_seen(int hit)
{
	uint64_t n = 0;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		n += hit ? seen[i] > 1 : seen[i] == 1;
	return n;
}

static int serve(int id, const char *path)
{
	uint64_t start = now_ns();
	int status = strcmp(path, "/missing") ? 200 : 404;

	MYAPP_REQUEST_START(id, path);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (!strcmp(paths[i], path)) {
			seen[i]++;
			break;
		}
	if (MYAPP_CACHE_STATS_ENABLED())
		MYAPP_CACHE_STATS(count_seen(1), count_seen(0));
	MYAPP_REQUEST_DONE(id, status, now_ns() - start);
	return status;
}

int main(int argc, char **argv)
{
	int count = argc > 1 ? atoi(argv[1]) : 10;
	int delay_ms = argc > 2 ? atoi(argv[2]) : 100;
	struct timespec delay = { delay_ms / 1000, (delay_ms % 1000) * 1000000L };
	int errors = 0;

	for (int id = 0; id < count; id++) {
		const char *path = paths[id % (sizeof(paths) / sizeof(paths[0]))];

		if (serve(id, path) != 200)
			errors++;
		nanosleep(&delay, NULL);
	}
	printf("served %d requests, %d errors\n", count, errors);
	return 0;
}
