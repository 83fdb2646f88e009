/* selftest.c - --test and --bench: the script's test probes run once
 * each, its bench probes timed, after BEGIN and before END (runtime.c
 * calls them in place of the event loop).
 *
 * A test passes when its block returns 0 (or nothing) and calls no
 * exit() with a code other than 0; its output is kept back, and shown
 * only when it fails.  A bench's output is dropped: the table of the
 * nanoseconds one run takes is the result. */
#include "run/tracer.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "out/json.h"

static void drain(void *arg)
{
	struct tracer *t = arg;

	ring_buffer__consume(t->rb.rb);
}

/* The output of one program's run, into a buffer of its own. */
struct capture {
	FILE *saved, *f;
	char *buf;
	size_t len;
};

static int capture_start(struct tracer *t, struct capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	fflush(t->pr.out);
	cap->f = open_memstream(&cap->buf, &cap->len);
	if (!cap->f)
		return -errno;
	cap->saved = t->pr.out;
	t->pr.out = cap->f;
	return 0;
}

static void capture_end(struct tracer *t, struct capture *cap)
{
	fclose(cap->f);
	t->pr.out = cap->saved;
}

/* One test's verdict, in text or JSON. */
static void report(struct tracer *t, const char *name, int32_t ret, int code,
		   const struct capture *cap)
{
	bool pass = !ret && !code;
	FILE *f = t->pr.out;

	if (t->pr.format == OUT_JSON) {
		fputs("{\"type\": \"test\", \"data\": {\"name\": ", f);
		js_str(f, name, strlen(name));
		fprintf(f, ", \"passed\": %s, \"return\": %d, \"exit\": %d, \"output\": ",
			pass ? "true" : "false", (int)ret, code);
		js_str(f, pass ? "" : cap->buf, pass ? 0 : cap->len);
		fputs("}}\n", f);
		return;
	}
	if (pass) {
		fprintf(f, "PASS %s\n", name);
		return;
	}
	if (ret)
		fprintf(f, "FAIL %s (returned %d)\n", name, (int)ret);
	else
		fprintf(f, "FAIL %s (exit code %d)\n", name, code);
	fwrite(cap->buf, 1, cap->len, f);
	if (cap->len && cap->buf[cap->len - 1] != '\n')
		fputc('\n', f);
}

int rt_run_tests(struct tracer *t)
{
	struct compiler *c = t->c;
	int ntests = 0, nfailed = 0;

	for (int i = 0; i < c->nprogs; i++) {
		struct prog_spec *ps = &c->progs[i];
		struct capture cap;
		int32_t ret = 0;
		int rc;

		if (ps->probe.ops->stage != STAGE_TEST)
			continue;
		rc = capture_start(t, &cap);
		if (rc)
			return rt_fail(t, rc, "probe %s: cannot keep its output: %s",
				       ps->probe.name, strerror(-rc));
		t->exiting = false;
		t->exit_code = 0;
		rc = probe_test_run(ps->fd, &ret);
		drain(t);
		capture_end(t, &cap);
		if (rc) {
			free(cap.buf);
			return rt_fail(t, rc, "probe %s: cannot run: %s",
				       ps->probe.name, strerror(-rc));
		}
		ntests++;
		nfailed += ret || t->exit_code;
		report(t, ps->probe.name, ret, t->exit_code, &cap);
		free(cap.buf);
	}
	t->exiting = false;
	t->exit_code = nfailed ? 1 : 0;
	if (t->pr.format != OUT_JSON)
		fprintf(t->pr.out, "%d test%s: %d passed, %d failed\n", ntests,
			ntests == 1 ? "" : "s", ntests - nfailed, nfailed);
	return 0;
}

struct bench {
	const char *name;
	uint64_t ns;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct bench *)a)->name,
		      ((const struct bench *)b)->name);
}

static void rule(FILE *f, int w1, int w2)
{
	fputc('+', f);
	for (int i = 0; i < w1 + 2; i++)
		fputc('-', f);
	fputc('+', f);
	for (int i = 0; i < w2 + 2; i++)
		fputc('-', f);
	fputs("+\n", f);
}

/* The table of the benchmarks, by name, as bpftrace prints it. */
static void bench_table(struct tracer *t, struct bench *v, int n)
{
	static const char col1[] = "BENCHMARK", col2[] = "NANOSECONDS";
	FILE *f = t->pr.out;
	int w1 = (int)strlen(col1), w2 = (int)strlen(col2);

	qsort(v, (size_t)n, sizeof(*v), by_name);
	if (t->pr.format == OUT_JSON) {
		fputs("{\"type\": \"benchmark_results\", \"data\": {", f);
		for (int i = 0; i < n; i++) {
			fputs(i ? ", " : "", f);
			js_str(f, v[i].name, strlen(v[i].name));
			fprintf(f, ": %llu", (unsigned long long)v[i].ns);
		}
		fputs("}}\n", f);
		return;
	}
	for (int i = 0; i < n; i++)
		if ((int)strlen(v[i].name) > w1)
			w1 = (int)strlen(v[i].name);
	fputs("\n\n", f);
	rule(f, w1, w2);
	fprintf(f, "| %-*s | %-*s |\n", w1, col1, w2, col2);
	rule(f, w1, w2);
	for (int i = 0; i < n; i++)
		fprintf(f, "| %-*s | %-*llu |\n", w1, v[i].name, w2,
			(unsigned long long)v[i].ns);
	rule(f, w1, w2);
}

int rt_run_benches(struct tracer *t)
{
	struct compiler *c = t->c;
	struct bench *v = xcalloc((size_t)c->nprogs + 1, sizeof(*v));
	int n = 0, rc = 0;

	for (int i = 0; i < c->nprogs && !rc; i++) {
		struct prog_spec *ps = &c->progs[i];
		struct capture cap;

		if (ps->probe.ops->stage != STAGE_BENCH)
			continue;
		rc = capture_start(t, &cap);
		if (rc) {
			rt_fail(t, rc, "probe %s: cannot keep its output: %s",
				ps->probe.name, strerror(-rc));
			break;
		}
		rc = probe_bench_time(ps->fd, &v[n].ns);
		drain(t);
		capture_end(t, &cap);
		free(cap.buf);
		if (rc)
			rt_fail(t, rc, "probe %s: cannot run: %s",
				ps->probe.name, strerror(-rc));
		v[n++].name = ps->probe.target;
	}
	t->exiting = false;
	if (!rc)
		bench_table(t, v, n);
	free(v);
	return rc;
}
