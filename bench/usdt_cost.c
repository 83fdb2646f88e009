/*
 * usdt_cost.c - what a USDT probe costs when nobody traces it.
 *
 * A loop (a little integer work per iteration) with no probe,
 * with SONDE_PROBE(bench, iter, i, acc), with sys/sdt.h's DTRACE_PROBE2
 * when built with -DWITH_SYS_SDT, and with SONDE_ENABLED() guarding a
 * probe whose argument is expensive to compute.  Prints ns per
 * iteration, the best of 5 runs of N iterations each.  The tight_
 * variants do the same around a loop that only stores its counter.
 *
 *   usdt_cost [N] [VARIANT]       (VARIANT: none probe sys_sdt guarded
 *                                  tight_none tight_probe tight_guarded)
 *
 * bench/usdt_cost.sh builds and runs it (and, as root, traced).
 */
#include <sonde/sdt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef WITH_SYS_SDT
#include <sys/sdt.h>
#endif

SONDE_SEMAPHORE(bench, guarded);

static volatile uint64_t sink;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What a guarded probe would not want to compute for nothing. */
static __attribute__((noinline)) uint64_t expensive(uint64_t x)
{
	for (int i = 0; i < 100; i++)
		x = x * 6364136223846793005u + 1442695040888963407u;
	return x;
}

#define STEP(acc, i) ((acc) = (acc) * 31 + (i) + ((acc) >> 7))

static __attribute__((noinline)) uint64_t run_none(uint64_t n)
{
	uint64_t acc = 1;

	for (uint64_t i = 0; i < n; i++)
		STEP(acc, i);
	return acc;
}

static __attribute__((noinline)) uint64_t run_probe(uint64_t n)
{
	uint64_t acc = 1;

	for (uint64_t i = 0; i < n; i++) {
		STEP(acc, i);
		SONDE_PROBE(bench, iter, i, acc);
	}
	return acc;
}

static __attribute__((noinline)) uint64_t run_sys_sdt(uint64_t n)
{
	uint64_t acc = 1;

	for (uint64_t i = 0; i < n; i++) {
		STEP(acc, i);
#ifdef WITH_SYS_SDT
		DTRACE_PROBE2(bench, sys_iter, i, acc);
#endif
	}
	return acc;
}

static __attribute__((noinline)) uint64_t run_guarded(uint64_t n)
{
	uint64_t acc = 1;

	for (uint64_t i = 0; i < n; i++) {
		STEP(acc, i);
		if (SONDE_ENABLED(bench, guarded))
			SONDE_PROBE_SEM(bench, guarded, i, expensive(acc));
	}
	return acc;
}

/* The same with almost no work: an empty loop but for a store, where
 * the probe's instructions cannot hide behind the arithmetic. */
static __attribute__((noinline)) uint64_t tight_none(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink = i;
	return n;
}

static __attribute__((noinline)) uint64_t tight_probe(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		sink = i;
		SONDE_PROBE(bench, tight, i);
	}
	return n;
}

static __attribute__((noinline)) uint64_t tight_guarded(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		sink = i;
		if (SONDE_ENABLED(bench, guarded))
			SONDE_PROBE_SEM(bench, guarded, i, expensive(i));
	}
	return n;
}

static const struct {
	const char *name;
	uint64_t (*fn)(uint64_t);
} variants[] = {
	{ "none", run_none },
	{ "probe", run_probe },
	{ "sys_sdt", run_sys_sdt },
	{ "guarded", run_guarded },
	{ "tight_none", tight_none },
	{ "tight_probe", tight_probe },
	{ "tight_guarded", tight_guarded },
};

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 100000000;

	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		uint64_t best = UINT64_MAX;

		if (argc > 2 && strcmp(argv[2], variants[v].name))
			continue;
#ifndef WITH_SYS_SDT
		if (variants[v].fn == run_sys_sdt)
			continue;
#endif
		for (int r = 0; r < 5; r++) {
			uint64_t t0 = now_ns(), t;

			sink = variants[v].fn(n);
			t = now_ns() - t0;
			if (t < best)
				best = t;
		}
		printf("%-14s %.3f ns/iteration\n", variants[v].name,
		       (double)best / (double)n);
	}
	return 0;
}
