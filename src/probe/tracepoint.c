/* tracepoint.c - the kernel's static tracepoints: tracepoint:CAT:NAME,
 * a TRACEPOINT program on the event's perf event, whose context is the
 * record tracefs describes, and rawtracepoint:NAME, a RAW_TRACEPOINT
 * program (or, when it names its BTF-typed arguments, a tp_btf one)
 * on a BPF link, whose context is the tracepoint's arguments.  Names
 * may be wildcards, expanded against tracefs (and, for raw
 * tracepoints, the btf_trace_NAME typedefs of BTF). */
#include "probe/kinds.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/btf.h"
#include "catalog/tracefs.h"

/* tracefs, mounted when nothing is; the fuzz targets' fixed tree when
 * the compile names one. */
static const char *tracefs(struct probe_exp *x)
{
	const char *why = NULL;
	bool mounted = false;
	const char *dir;

	if (x->c->tracefs)
		return x->c->tracefs;
	dir = tracefs_dir(&why, &mounted);
	if (!dir) {
		probe_error(x, "%s", why);
		return NULL;
	}
	if (mounted && x->c->verbose)
		fprintf(stderr, "sonde: mounted tracefs at %s\n", dir);
	return dir;
}

struct tp_walk {
	struct probe_exp *x;
	const char *dir;
	int err;
};

static void add_tracepoint(void *arg, const char *cat, const char *name)
{
	struct tp_walk *w = arg;
	struct compiler *c = w->x->c;
	bool raw = w->x->ops->kind == PK_RAWTP;
	struct probe_spec *ps;
	struct tp_format *tp = arena_alloc(&c->arena, sizeof(*tp));
	int rc;

	/* the syscalls' events are ftrace's, not raw tracepoints */
	if (w->err || (raw && !strcmp(cat, "syscalls")))
		return;
	rc = tp_read_format(&c->arena, w->dir, cat, name, tp);
	if (rc) {
		/* Some tracefs entries (ftrace's own) have no usable format. */
		if (rc == -ENOENT || rc == -EINVAL)
			return;
		w->err = rc;
		return;
	}
	ps = probe_add(w->x);
	if (raw) {
		ps->target = arena_strdup(&c->arena, name);
		ps->name = arena_printf(&c->arena, "rawtracepoint:%s", name);
		return;
	}
	ps->target = arena_printf(&c->arena, "%s:%s", cat, name);
	ps->name = arena_printf(&c->arena, "tracepoint:%s:%s", cat, name);
	ps->tp = tp;
	ps->tp_id = tp->id;
	/* the syscalls' pointers are the calling process's */
	ps->user_mem = tp->category && !strcmp(tp->category, "syscalls");
}

static bool have_target(const struct probe_exp *x, const char *name)
{
	for (int i = 0; i < x->n; i++)
		if (!strcmp(x->v[i].target, name))
			return true;
	return false;
}

static void add_bare(void *arg, const char *name)
{
	struct probe_exp *x = arg;
	struct probe_spec *ps;

	if (have_target(x, name))
		return;
	ps = probe_add(x);
	ps->target = arena_strdup(&x->c->arena, name);
	ps->name = arena_printf(&x->c->arena, "rawtracepoint:%s", name);
}

static void no_match(struct probe_exp *x, const char *cat, const char *name)
{
	bool raw = x->ops->kind == PK_RAWTP;

	if ((!raw && probe_wild(cat)) || probe_wild(name))
		probe_missing(x, "no %s matches %s%s%s",
			    raw ? "raw tracepoint" : "tracepoint",
			    raw ? "" : cat, raw ? "" : ":", name);
	else if (raw && x->nf == 3)
		probe_missing(x, "raw tracepoint not found: %s:%s (%s is neither a loaded module nor a tracepoint category)",
			      cat, name, cat);
	else if (raw)
		probe_missing(x, "raw tracepoint not found: %s", name);
	else
		probe_missing(x, "tracepoint not found: %s:%s", cat, name);
}

/* A raw tracepoint listed under several categories is one probe. */
static void one_each(struct probe_exp *x)
{
	int k = 0;

	for (int i = 0; i < x->n; i++) {
		bool dup = false;

		for (int j = 0; j < k; j++)
			if (!strcmp(x->v[j].target, x->v[i].target))
				dup = true;
		if (!dup)
			x->v[k++] = x->v[i];
	}
	x->n = k;
}

/* The specs of rawtracepoint:MOD:NAME are named so. */
static void name_module(struct probe_exp *x, int from, const char *mod)
{
	for (int i = from; i < x->n; i++)
		x->v[i].name = arena_printf(&x->c->arena, "rawtracepoint:%s:%s",
					    mod, x->v[i].target);
}

/* rawtracepoint:MOD:NAME (bpftrace 0.26): vmlinux's raw tracepoints
 * (a MOD matching "vmlinux": all tracefs and BTF knows), or those a
 * loaded module's BTF declares.  0 with the specs made, -1 after an
 * error, 1 when MOD is neither: then it is a tracefs category, as
 * sonde read it before (rawtracepoint:sched:sched_switch). */
static int raw_module(struct probe_exp *x, const char *mod, const char *name)
{
	struct tp_walk w = { x, NULL, 0 };
	int rc;

	if (!fnmatch(mod, "vmlinux", 0)) {
		w.dir = tracefs(x);
		if (!w.dir)
			return -1;
		rc = tp_list(w.dir, "*", name, add_tracepoint, &w);
		if (rc < 0 || w.err) {
			probe_error(x, "cannot read tracefs: %s",
				    strerror(-(w.err ? w.err : rc)));
			return -1;
		}
		btf_raw_tracepoints(x->c, name, add_bare, x);
		one_each(x);
		name_module(x, 0, "vmlinux");
	} else if (!probe_wild(mod) &&
		   !btf_module_raw_tracepoints(x->c, mod, name, add_bare, x)) {
		name_module(x, 0, mod);
	} else {
		return 1;
	}
	if (!x->n) {
		if (probe_wild(name))
			probe_missing(x, "no raw tracepoint of %s matches %s", mod,
				      name);
		else
			probe_missing(x, "raw tracepoint not found: %s:%s", mod,
				      name);
		return -1;
	}
	for (int i = 0; i < x->n; i++)
		x->v[i].wild = probe_wild(name) || probe_wild(mod);
	return 0;
}

/* tracepoint:CAT:NAME and rawtracepoint:[CAT:]NAME, wildcards expanded. */
static int tp_expand(struct probe_exp *x)
{
	bool raw = x->ops->kind == PK_RAWTP;
	struct tp_walk w = { x, NULL, 0 };
	const char *cat, *name;
	int rc;

	if (raw ? (x->nf < 2 || x->nf > 3) : x->nf != 3) {
		probe_error(x, raw ?
			    "rawtracepoint probe needs a name: rawtracepoint:NAME" :
			    "tracepoint probe needs a category and a name: tracepoint:CATEGORY:NAME");
		return -1;
	}
	cat = raw ? (x->nf == 3 ? x->f[1] : "*") : x->f[1];
	name = raw ? x->f[x->nf - 1] : x->f[2];
	if (!*cat || !*name) {
		probe_error(x, "empty %s name in '%s'", x->ops->name, x->text);
		return -1;
	}
	if (raw && x->nf == 3) {	/* rawtracepoint:MODULE:NAME */
		rc = raw_module(x, cat, name);
		if (rc <= 0)
			return rc;
	}
	w.dir = tracefs(x);
	if (!w.dir)
		return -1;
	rc = tp_list(w.dir, cat, name, add_tracepoint, &w);
	/* Bare tracepoints (no tracefs event) exist only in BTF. */
	if (raw && x->nf == 2 && rc >= 0 && !w.err)
		btf_raw_tracepoints(x->c, name, add_bare, x);
	if (rc < 0 || w.err) {
		probe_error(x, "cannot read tracefs: %s",
			    strerror(-(w.err ? w.err : rc)));
		return -1;
	}
	if (!x->n) {
		no_match(x, cat, name);
		return -1;
	}
	if (raw)
		one_each(x);
	for (int i = 0; i < x->n; i++)
		x->v[i].wild = (!raw && probe_wild(cat)) || probe_wild(name);
	return 0;
}

struct lister {
	const char *pattern;
	const char *module;	/* rawtracepoint:MODULE:NAME: "vmlinux" */
	const char *dir;
	bool verbose;
	struct arena arena;
};

static bool match(const struct lister *l, const char *name)
{
	return !l->pattern || !fnmatch(l->pattern, name, 0);
}

static void list_one(void *arg, const char *cat, const char *name)
{
	struct lister *l = arg;
	char full[512];
	struct tp_format tp;

	snprintf(full, sizeof(full), "tracepoint:%s:%s", cat, name);
	if (!match(l, full))
		return;
	puts(full);
	if (!l->verbose)
		return;
	if (tp_read_format(&l->arena, l->dir, cat, name, &tp))
		return;
	for (int i = 0; i < tp.nfields; i++)
		printf("    %s\n", tp.fields[i].decl);
}

/* NAME as -l shows it, with the module when the pattern named one. */
static void put_raw(const struct lister *l, const char *name)
{
	if (l->module)
		printf("rawtracepoint:%s:%s\n", l->module, name);
	else
		printf("rawtracepoint:%s\n", name);
}

static void list_raw(void *arg, const char *cat, const char *name)
{
	struct lister *l = arg;
	char full[512];

	/* the syscalls' events are ftrace's, not raw tracepoints */
	if (!strcmp(cat, "syscalls"))
		return;
	snprintf(full, sizeof(full), "rawtracepoint:%s", name);
	if (match(l, full))
		put_raw(l, name);
}

static void skip_one(void *arg, const char *cat, const char *name)
{
	(void)arg;
	(void)cat;
	(void)name;
}

/* Bare raw tracepoints: in BTF (btf_trace_NAME) but not in tracefs. */
static void list_bare(void *arg, const char *name)
{
	struct lister *l = arg;
	char full[512];

	snprintf(full, sizeof(full), "rawtracepoint:%s", name);
	if (!match(l, full))
		return;
	/* listed already if some tracefs category has it */
	if (tp_list(l->dir, "*", name, skip_one, NULL) > 0)
		return;
	put_raw(l, name);
}

/* -l: tracefs's events; raw tracepoints in a full list and when the
 * pattern's kind can be theirs (they repeat most of the list). */
static int tp_list_probes(const struct probe_ops *ops, const char *pattern,
			  bool verbose, int pid)
{
	struct lister l;
	const char *why = NULL;
	bool raw = ops->kind == PK_RAWTP;

	(void)pid;
	if (raw && pattern && strncmp(pattern, "rawtracepoint:", 14)) {
		char kind[64];

		snprintf(kind, sizeof(kind), "%.*s",
			 (int)strcspn(pattern, ":"), pattern);
		if (fnmatch(kind, "rawtracepoint", 0))
			return 0;
	}
	memset(&l, 0, sizeof(l));
	l.pattern = pattern;
	l.verbose = verbose;
	/* rawtracepoint:MODULE:NAME: vmlinux's, which are all sonde lists */
	if (raw && pattern && !strncmp(pattern, "rawtracepoint:", 14) &&
	    strchr(pattern + 14, ':')) {
		const char *name = strchr(pattern + 14, ':') + 1;
		char *mod = arena_strndup(&l.arena, pattern + 14,
					  (size_t)(name - 1 - pattern - 14));

		if (fnmatch(mod, "vmlinux", 0)) {
			arena_free(&l.arena);
			return 0;
		}
		l.module = "vmlinux";
		l.pattern = arena_printf(&l.arena, "rawtracepoint:%s", name);
	}
	l.dir = tracefs_dir(&why, NULL);
	if (!l.dir) {
		if (!raw && (verbose || !pattern || !strncmp(pattern, "t", 1)))
			fprintf(stderr, "sonde: cannot list tracepoints: %s\n", why);
		return 0;
	}
	if (raw) {
		tp_list(l.dir, "*", "*", list_raw, &l);
		btf_raw_tracepoints(NULL, "*", list_bare, &l);
	} else {
		tp_list(l.dir, "*", "*", list_one, &l);
	}
	arena_free(&l.arena);
	return 0;
}

static void tp_load(const struct probe_spec *ps, struct probe_load *pl)
{
	/* a wildcard's events merged as raw tracepoints (tpmerge.c) */
	pl->type = ps->multi ? BPF_PROG_TYPE_RAW_TRACEPOINT :
		   BPF_PROG_TYPE_TRACEPOINT;
}

/* A tracepoint: one perf event; the kernel runs the program for the
 * tracepoint on every CPU. */
static int tp_attach(const struct probe_spec *ps, int fd, struct probe_env *env)
{
	struct perf_event_attr attr;
	int pfd;

	if (ps->multi)
		return tp_raw_attach(ps, fd, env);
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)ps->tp_id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = probe_perf_open(&attr, -1, 0);
	if (pfd < 0)
		return -errno;
	return probe_perf_attach(env, pfd, fd);
}

static void rawtp_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	if (ps->tp_btf) {
		pl->type = BPF_PROG_TYPE_TRACING;
		pl->expected_attach_type = BPF_TRACE_RAW_TP;
		pl->attach_btf_id = (uint32_t)ps->attach_btf_id;
	}
}

static int rawtp_attach(const struct probe_spec *ps, int fd,
			struct probe_env *env)
{
	/* a tp_btf program knows its tracepoint from its BTF id */
	int lfd = bpf_raw_tracepoint_open(ps->tp_btf ? NULL : ps->target, fd);

	if (lfd < 0)
		return -errno;
	probe_own_link(env, lfd);
	return 0;
}

const struct probe_ops probe_tracepoint_ops = {
	.name = "tracepoint",
	.alias = "t",
	.kind = PK_TRACEPOINT,
	.flags = PF_TASK,
	.ctx = CTX_RECORD,
	.expand = tp_expand,
	.merge = tp_merge,
	.list = tp_list_probes,
	.load = tp_load,
	.attach = tp_attach,
};

const struct probe_ops probe_rawtp_ops = {
	.name = "rawtracepoint",
	.alias = "rt",
	.kind = PK_RAWTP,
	.flags = PF_TASK,
	.ctx = CTX_RAWTP,
	.expand = tp_expand,
	.list = tp_list_probes,
	.load = rawtp_load,
	.attach = rawtp_attach,
};
