/* special.c - the probes sonde runs itself rather than the kernel's
 * events: BEGIN and END, raw-tracepoint programs run once each with
 * BPF_PROG_TEST_RUN (so they need no attach point), and iter:KIND, a
 * BPF iterator read to its end once BEGIN ran. */
#include "probe/kinds.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "catalog/btf.h"

void probe_load_once(const struct probe_spec *ps, struct probe_load *pl)
{
	(void)ps;
	pl->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
}

int probe_test_run(int fd, int32_t *ret)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint64_t ctx[1] = { 0 };

	opts.ctx_in = ctx;
	opts.ctx_size_in = sizeof(ctx);
	if (bpf_prog_test_run_opts(fd, &opts) < 0)
		return -errno;
	*ret = (int32_t)opts.retval;
	return 0;
}

/* Run a BEGIN or END program once on this CPU. */
int probe_run_once(const struct probe_spec *ps, int fd,
		   void (*drain)(void *arg), void *arg, const char **what)
{
	int32_t ret;
	int rc = probe_test_run(fd, &ret);

	(void)ps;
	if (rc) {
		*what = "cannot run";
		return rc;
	}
	drain(arg);
	return 0;
}

const struct probe_ops probe_begin_ops = {
	.name = "BEGIN",
	.kind = PK_BEGIN,
	.flags = PF_SONDE | PF_TIMER,
	.ctx = CTX_NONE,
	.stage = STAGE_BEGIN,
	.load = probe_load_once,
	.run = probe_run_once,
};

const struct probe_ops probe_end_ops = {
	.name = "END",
	.kind = PK_END,
	.flags = PF_SONDE | PF_TIMER,
	.ctx = CTX_NONE,
	.stage = STAGE_END,
	.load = probe_load_once,
	.run = probe_run_once,
};

/* iter:task, iter:task_file, iter:task_vma: a BPF iterator run once
 * over every task (or open file, or mapping), then the script ends;
 * iter:KIND:PIN pins it instead (a name under /sys/fs/bpf, or a path
 * there), and each read of that file runs it, its printf()s writing
 * to the reader. */
static int iter_expand(struct probe_exp *x)
{
	static const char *const known[] = { "task", "task_file", "task_vma" };
	struct compiler *c = x->c;
	const char *why = NULL;
	struct probe_spec *ps;
	struct btf *b;
	char fn[64];
	bool ok = false;
	int id;

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if ((x->nf == 2 || x->nf == 3) && !strcmp(x->f[1], known[i]))
			ok = true;
	if (!ok) {
		probe_error(x, "iter probe needs one of task, task_file, task_vma: iter:task[:PIN]");
		return -1;
	}
	if (x->nf == 3 && !*x->f[2]) {
		probe_error(x, "iter:%s: the pin file's name is empty", x->f[1]);
		return -1;
	}
	b = btf_kernel(c, &why);
	if (!b) {
		probe_error(x, "iter:%s: %s", x->f[1], why);
		return -1;
	}
	snprintf(fn, sizeof(fn), "bpf_iter_%s", x->f[1]);
	id = btf__find_by_name_kind(b, fn, BTF_KIND_FUNC);
	if (id < 0) {
		probe_error(x, "this kernel has no %s iterator", x->f[1]);
		return -1;
	}
	ps = probe_add(x);
	ps->target = arena_strdup(&c->arena, x->f[1]);
	ps->attach_btf_id = id;
	ps->ctx_struct = arena_printf(&c->arena, "struct bpf_iter__%s", x->f[1]);
	ps->name = arena_printf(&c->arena, "iter:%s", x->f[1]);
	if (x->nf == 3) {	/* a path, or a name under /sys/fs/bpf */
		ps->pin = x->f[2][0] == '/' ?
			  arena_strdup(&c->arena, x->f[2]) :
			  arena_printf(&c->arena, "/sys/fs/bpf/%s", x->f[2]);
		ps->name = arena_printf(&c->arena, "iter:%s:%s", x->f[1],
					x->f[2]);
	}
	return 0;
}

static void iter_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_TRACING;
	pl->expected_attach_type = BPF_TRACE_ITER;
	pl->attach_btf_id = (uint32_t)ps->attach_btf_id;
}

/* Create the iterator and read it to its end; the program runs once
 * per element and reports through the ring buffer. */
static int iter_run(const struct probe_spec *ps, int prog,
		    void (*drain)(void *arg), void *arg, const char **what)
{
	int link = bpf_link_create(prog, 0, BPF_TRACE_ITER, NULL), fd, err;
	char buf[4096];
	ssize_t n;

	if (link < 0) {
		*what = "attach failed";
		return -errno;
	}
	if (ps->pin) {	/* the pin keeps it; reading the file runs it */
		static char why[600];

		err = bpf_obj_pin(link, ps->pin) ? -errno : 0;
		snprintf(why, sizeof(why), "cannot pin the iterator to %.500s%s",
			 ps->pin, err == -ENOENT || err == -EPERM ?
			 " (is a BPF filesystem mounted there? mount -t bpf bpf /sys/fs/bpf)" : "");
		if (err)
			*what = why;
		else
			printf("Program pinned to %s\n", ps->pin);
		close(link);
		return err;
	}
	fd = bpf_iter_create(link);
	if (fd < 0) {
		err = errno;
		*what = "cannot start the iterator";
		close(link);
		return -err;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		drain(arg);
	close(fd);
	close(link);
	drain(arg);
	return 0;
}

const struct probe_ops probe_iter_ops = {
	.name = "iter",
	.alias = "it",
	.kind = PK_ITER,
	.flags = PF_SONDE | PF_TIMER | PF_DPATH,
	.ctx = CTX_ITER,
	.stage = STAGE_ITER,
	.expand = iter_expand,
	.load = iter_load,
	.run = iter_run,
};
