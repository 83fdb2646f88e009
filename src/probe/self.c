/* self.c - probes on sonde itself rather than on the kernel's events,
 * run by BPF_PROG_TEST_RUN as BEGIN and END are:
 *
 *   self:signal:SIGUSR1  each time sonde receives SIGUSR1 (runtime.c);
 *   test:NAME            once each, in order, by --test: the block's
 *                        return value (0 passes), its exit() code;
 *   bench:NAME           many times each by --bench, which prints the
 *                        time of one run.
 *
 * A run that is not of their mode ignores test and bench probes, and
 * --test and --bench ignore every probe but theirs, BEGIN and END
 * (probe_expand() gives the ignored ones no specs). */
#include "probe/kinds.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The signals a self probe may name, with or without "SIG". */
static const char *const signals[] = { "SIGUSR1" };

static int self_expand(struct probe_exp *x)
{
	const char *sig;
	struct probe_spec *ps;

	if (x->nf != 3 || strcmp(x->f[1], "signal") || !*x->f[2]) {
		probe_error(x, "self probes take a signal: self:signal:SIGUSR1");
		return -1;
	}
	sig = x->f[2];
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++) {
		if (strcmp(sig, signals[i]) && strcmp(sig, signals[i] + 3))
			continue;
		ps = probe_add(x);
		ps->target = signals[i];
		ps->name = arena_printf(&x->c->arena, "self:signal:%s",
					signals[i]);
		return 0;
	}
	probe_error(x, "self:signal: '%s' is not a signal sonde traces (SIGUSR1 is)",
		    sig);
	return -1;
}

/* -l 'self:*': the self probes there are. */
static int self_list(const struct probe_ops *ops, const char *pattern,
		     bool verbose, int pid)
{
	char full[64];

	(void)verbose;
	(void)pid;
	for (size_t i = 0; i < ARRAY_SIZE(signals); i++) {
		snprintf(full, sizeof(full), "%s:signal:%s", ops->name,
			 signals[i]);
		if (!pattern || !fnmatch(pattern, full, 0))
			puts(full);
	}
	return 0;
}

const struct probe_ops probe_self_ops = {
	.name = "self",
	.kind = PK_SELF,
	.flags = PF_SONDE | PF_TIMER,
	.ctx = CTX_NONE,
	.stage = STAGE_SIGNAL,
	.expand = self_expand,
	.list = self_list,
	.load = probe_load_once,
	.run = probe_run_once,
};

/* test:NAME and bench:NAME: a name, no more fields. */
static int named_expand(struct probe_exp *x)
{
	struct probe_spec *ps;

	if (x->nf != 2 || !*x->f[1]) {
		probe_error(x, "%s probes take a name: %s:NAME", x->f[0],
			    x->ops->name);
		return -1;
	}
	if (probe_wild(x->f[1])) {
		probe_error(x, "%s:%s: a %s probe's name has no wildcards",
			    x->ops->name, x->f[1], x->ops->name);
		return -1;
	}
	ps = probe_add(x);
	ps->target = arena_strdup(&x->c->arena, x->f[1]);
	ps->name = arena_printf(&x->c->arena, "%s:%s", x->ops->name, x->f[1]);
	return 0;
}

const struct probe_ops probe_test_ops = {
	.name = "test",
	.kind = PK_TEST,
	.flags = PF_SONDE | PF_TIMER,
	.ctx = CTX_NONE,
	.stage = STAGE_TEST,
	.expand = named_expand,
	.load = probe_load_once,
	.run = probe_run_once,
};

const struct probe_ops probe_bench_ops = {
	.name = "bench",
	.kind = PK_BENCH,
	.flags = PF_SONDE | PF_TIMER,
	.ctx = CTX_NONE,
	.stage = STAGE_BENCH,
	.expand = named_expand,
	.load = probe_load_once,
	.run = probe_run_once,
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The nanoseconds N runs of FD take; 0 after an error (errno set). */
static uint64_t time_runs(int fd, int n)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint64_t ctx[1] = { 0 }, t0 = now_ns();

	opts.ctx_in = ctx;
	opts.ctx_size_in = sizeof(ctx);
	for (int i = 0; i < n; i++)
		if (bpf_prog_test_run_opts(fd, &opts) < 0)
			return 0;
	return now_ns() - t0 + 1;
}

/* The kernel runs a raw tracepoint's program once per BPF_PROG_TEST_RUN
 * (it refuses `repeat`), so a run is timed from here: rounds of calls,
 * the fastest round kept, less the fastest round of an empty program,
 * which is the system call's own cost. */
int probe_bench_time(int fd, uint64_t *ns)
{
	static const struct bpf_insn empty[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	enum { ROUNDS = 7, RUNS = 2000 };
	uint64_t best = UINT64_MAX, base = UINT64_MAX;
	int efd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "sonde_empty",
				"GPL", empty, ARRAY_SIZE(empty), NULL);

	if (efd < 0)
		return -errno;
	time_runs(fd, RUNS / 10);	/* warm the caches */
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t e = time_runs(efd, RUNS), b = time_runs(fd, RUNS);

		if (!e || !b) {
			int err = errno;

			close(efd);
			return -err;
		}
		if (e < base)
			base = e;
		if (b < best)
			best = b;
	}
	close(efd);
	*ns = best > base ? (best - base) / RUNS : 0;
	return 0;
}
