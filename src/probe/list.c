/* list.c - sonde -l: the probes this machine offers, or those a script
 * would attach. */
#include "probe/list.h"

#include <errno.h>
#include <bpf/btf.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/elfsym.h"
#include "probe/probe.h"
#include "catalog/tracefs.h"
#include "catalog/usdt.h"

struct lister {
	const char *pattern;
	const char *dir;
	bool verbose;
	int count;
	struct arena arena;
};

static bool match(const struct lister *l, const char *name)
{
	return !l->pattern || !fnmatch(l->pattern, name, 0);
}

static void print_line(void *arg, const char *line)
{
	struct lister *l = arg;

	puts(line);
	l->count++;
}

static void tracepoint(void *arg, const char *cat, const char *name)
{
	struct lister *l = arg;
	char full[512];
	struct tp_format tp;

	snprintf(full, sizeof(full), "tracepoint:%s:%s", cat, name);
	if (!match(l, full))
		return;
	puts(full);
	l->count++;
	if (!l->verbose)
		return;
	if (tp_read_format(&l->arena, l->dir, cat, name, &tp))
		return;
	for (int i = 0; i < tp.nfields; i++)
		printf("    %s\n", tp.fields[i].decl);
}

static void skip_one(void *arg, const char *cat, const char *name)
{
	(void)arg;
	(void)cat;
	(void)name;
}

static void rawtracepoint(void *arg, const char *cat, const char *name)
{
	struct lister *l = arg;
	char full[512];

	(void)cat;
	snprintf(full, sizeof(full), "rawtracepoint:%s", name);
	if (match(l, full))
		print_line(l, full);
}

/* Bare raw tracepoints: in BTF (btf_trace_NAME) but not in tracefs. */
static void raw_from_btf(struct lister *l)
{
	struct btf *b = btf__load_vmlinux_btf();
	int n;

	if (!b)
		return;
	n = (int)btf__type_cnt(b);
	for (int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *tn;
		char full[512];

		if (!btf_is_typedef(t))
			continue;
		tn = btf__name_by_offset(b, t->name_off);
		if (!tn || strncmp(tn, "btf_trace_", 10))
			continue;
		snprintf(full, sizeof(full), "rawtracepoint:%s", tn + 10);
		if (!match(l, full))
			continue;
		/* listed already if some tracefs category has it */
		if (tp_list(l->dir, "*", tn + 10, skip_one, NULL) > 0)
			continue;
		print_line(l, full);
	}
	btf__free(b);
}

/* One probe of a file: its locations' operands, for -lv. */
struct uprobe_row {
	const char *provider, *name;
	int nlocs, nargs;
	uint64_t sem;
	const char **ops;	/* nargs * the operand texts, ", "-joined */
	const char **types;
};

struct ulist {
	struct arena *a;
	struct vec rows;	/* struct uprobe_row */
};

/* Is OP one of the ", "-separated operands of LIST? */
static bool has_op(const char *list, const char *op)
{
	size_t n = strlen(op);

	for (const char *p = list; p; p = strstr(p, ", ")) {
		if (*p == ',')
			p += 2;
		if (!strncmp(p, op, n) && (p[n] == 0 || p[n] == ','))
			return true;
	}
	return false;
}

static int row_cmp(const void *a, const void *b)
{
	const struct uprobe_row *x = a, *y = b;
	int d = strcmp(x->provider, y->provider);

	return d ? d : strcmp(x->name, y->name);
}

static void usdt_row(void *arg, const struct usdt_note *n)
{
	struct ulist *u = arg;
	struct uprobe_row *r = NULL;

	for (size_t i = 0; i < u->rows.len && !r; i++) {
		struct uprobe_row *x = &VEC_AT(&u->rows, struct uprobe_row, i);

		if (!strcmp(x->provider, n->provider) && !strcmp(x->name, n->name))
			r = x;
	}
	if (!r) {
		r = vec_push(&u->rows);
		r->provider = arena_strdup(u->a, n->provider);
		r->name = arena_strdup(u->a, n->name);
		r->nargs = n->nargs;
		r->sem = n->sem;
		r->ops = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
		r->types = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
	}
	r->nlocs++;
	for (int k = 0; k < n->nargs && k < r->nargs; k++) {
		const struct usdt_arg *a = &n->arg[k];
		char *op = arena_strndup(u->a, n->args + a->text_off,
					 (size_t)a->text_len);

		if (!r->types[k])
			r->types[k] = a->loc == USDT_BAD ?
				arena_printf(u->a, "unreadable (%s)", a->err) :
				usdt_arg_type(a);
		if (!r->ops[k])
			r->ops[k] = op;
		else if (!has_op(r->ops[k], op))
			r->ops[k] = arena_printf(u->a, "%s, %s", r->ops[k], op);
	}
}

/* -l 'usdt:PATH[:PATTERN[:PATTERN]]': the file's probes, each once
 * however many locations it has.  One PATTERN matches the name or
 * "provider:name"; two match provider and name. */
static int list_usdt(const char *pattern, bool verbose, int pid)
{
	struct arena a = { 0 };
	struct ulist u = { &a, VEC_INIT(struct uprobe_row) };
	const char *colon = strchr(pattern, ':'), *rest;
	char *file, *path, *prov = NULL, *name = NULL;
	int rc, nbad;

	file = arena_strdup(&a, colon + 1);
	rest = strchr(file, ':');
	if (rest) {
		file[rest - file] = 0;
		name = arena_strdup(&a, rest + 1);
		prov = strchr(name, ':');
		if (prov) {	/* PROVIDER:NAME */
			char *t = name;

			*prov++ = 0;
			name = prov;
			prov = t;
		}
	}
	path = elf_resolve_path(file, pid);
	if (!path) {
		fprintf(stderr, "sonde: usdt: %s: no such file, library or program\n",
			file);
		arena_free(&a);
		return 1;
	}
	rc = usdt_notes(path, NULL, NULL, usdt_row, &u, &nbad);
	if (rc < 0) {
		fprintf(stderr, "sonde: usdt: %s: %s\n", path,
			rc == -ENOEXEC ? "not an ELF file" :
			rc == -EINVAL ? "not an executable or a shared library" :
			strerror(-rc));
		free(path);
		vec_free(&u.rows);
		arena_free(&a);
		return 1;
	}
	if (u.rows.len)
		qsort(u.rows.data, u.rows.len, sizeof(struct uprobe_row), row_cmp);
	for (size_t i = 0; i < u.rows.len; i++) {
		struct uprobe_row *r = &VEC_AT(&u.rows, struct uprobe_row, i);
		char both[512];

		snprintf(both, sizeof(both), "%s:%s", r->provider, r->name);
		if (prov ? fnmatch(prov, r->provider, 0) || fnmatch(name, r->name, 0) :
		    name && fnmatch(name, r->name, 0) && fnmatch(name, both, 0))
			continue;
		printf("usdt:%s:%s:%s\n", path, r->provider, r->name);
		if (!verbose)
			continue;
		printf("    %d argument%s, %d location%s", r->nargs,
		       r->nargs == 1 ? "" : "s", r->nlocs, r->nlocs == 1 ? "" : "s");
		if (r->sem)
			printf(", semaphore 0x%llx", (unsigned long long)r->sem);
		printf("\n");
		for (int k = 0; k < r->nargs; k++)
			printf("    arg%d: %s (%s)\n", k, r->types[k], r->ops[k]);
	}
	if (nbad)
		fprintf(stderr, "sonde: usdt: %s: %d corrupt note%s skipped\n",
			path, nbad, nbad == 1 ? "" : "s");
	fflush(stdout);
	free(path);
	vec_free(&u.rows);
	arena_free(&a);
	return 0;
}

int list_probes(const char *pattern, bool verbose, int pid)
{
	struct lister l;
	const char *why = NULL;

	if (pattern && (!strncmp(pattern, "usdt:", 5) || !strncmp(pattern, "U:", 2)))
		return list_usdt(pattern, verbose, pid);
	memset(&l, 0, sizeof(l));
	/* A bare word lists everything that contains it. */
	if (pattern && !strpbrk(pattern, "*?[:"))
		pattern = arena_printf(&l.arena, "*%s*", pattern);
	l.pattern = pattern;
	l.verbose = verbose;
	l.dir = tracefs_dir(&why, NULL);
	if (l.dir) {
		tp_list(l.dir, "*", "*", tracepoint, &l);
		/* raw tracepoints only when asked for: they repeat the list */
		if (pattern && !strncmp(pattern, "rawtracepoint:", 14)) {
			tp_list(l.dir, "*", "*", rawtracepoint, &l);
			raw_from_btf(&l);
		}
	} else if (verbose || !pattern || !strncmp(pattern, "t", 1)) {
		fprintf(stderr, "sonde: cannot list tracepoints: %s\n", why);
	}
	probes_list_perf(print_line, &l, pattern);
	arena_free(&l.arena);
	fflush(stdout);
	return 0;
}

void list_script(struct compiler *c)
{
	for (struct node *p = c->ast->probes; p; p = p->next) {
		for (int i = 0; i < p->nargs; i++) {
			struct probe_spec *ps;
			int n;

			if (probes_expand(c, p->args[i], &ps, &n))
				continue;
			/* a usdt probe's locations share its name */
			for (int k = 0; k < n; k++)
				if (!k || strcmp(ps[k].name, ps[k - 1].name))
					puts(ps[k].name);
		}
	}
	fflush(stdout);
}
