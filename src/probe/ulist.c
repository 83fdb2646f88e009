/* ulist.c - sonde -l for the probes of user-space files: the functions
 * of uprobe:FILE[:FUNC] and uretprobe:..., the notes of
 * usdt:FILE[:PROVIDER[:NAME]], FILE a path, a library, a wildcard, or
 * with -p empty or "*" (the process's executable and libraries). */
#include "probe/kinds.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "catalog/elfsym.h"
#include "catalog/usdt.h"
#include "probe/ufiles.h"

/* One probe of a file: its locations' operands, for -lv. */
struct usdt_row {
	const char *provider, *name;
	int nlocs, nargs;
	uint64_t sem;
	const char **ops;	/* nargs * the operand texts, ", "-joined */
	const char **types;
};

struct ulist {
	struct arena *a;
	struct vec rows;	/* struct usdt_row */
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
	const struct usdt_row *x = a, *y = b;
	int d = strcmp(x->provider, y->provider);

	return d ? d : strcmp(x->name, y->name);
}

static struct usdt_row *row_of(struct ulist *u, const struct usdt_note *n)
{
	struct usdt_row *r;

	for (size_t i = 0; i < u->rows.len; i++) {
		r = &VEC_AT(&u->rows, struct usdt_row, i);
		if (!strcmp(r->provider, n->provider) && !strcmp(r->name, n->name))
			return r;
	}
	r = vec_push(&u->rows);
	r->provider = arena_strdup(u->a, n->provider);
	r->name = arena_strdup(u->a, n->name);
	r->nargs = n->nargs;
	r->sem = n->sem;
	r->ops = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
	r->types = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
	return r;
}

static void usdt_row(void *arg, const struct usdt_note *n)
{
	struct ulist *u = arg;
	struct usdt_row *r = row_of(u, n);

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

static void print_row(const struct usdt_row *r, const char *path, bool verbose)
{
	printf("usdt:%s:%s:%s\n", path, r->provider, r->name);
	if (!verbose)
		return;
	printf("    %d argument%s, %d location%s", r->nargs,
	       r->nargs == 1 ? "" : "s", r->nlocs, r->nlocs == 1 ? "" : "s");
	if (r->sem)
		printf(", semaphore 0x%llx", (unsigned long long)r->sem);
	printf("\n");
	for (int k = 0; k < r->nargs; k++)
		printf("    arg%d: %s (%s)\n", k, r->types[k], r->ops[k]);
}

/* PATTERN's fields after the kind (arena copies): the file and up to
 * two more, NULL when absent. */
static const char *fields(struct arena *a, const char *pattern, char **f1,
			  char **f2)
{
	char *file = arena_strdup(a, strchr(pattern, ':') ? strchr(pattern, ':') + 1
						    : ""), *rest;

	*f1 = *f2 = NULL;
	rest = strchr(file, ':');
	if (!rest)
		return file;
	*rest = 0;
	*f1 = rest + 1;
	rest = strchr(*f1, ':');
	if (rest) {
		*rest = 0;
		*f2 = rest + 1;
	}
	return file;
}

/* The files of PATTERN's file field; NULL after saying why. */
static struct ufiles *files(struct arena *a, const char *kind,
			    const char *file, int pid)
{
	struct ufiles *fs = arena_alloc(a, sizeof(*fs));
	char err[512];

	if (ufiles_find(fs, a, kind, file, pid, err, sizeof(err))) {
		fprintf(stderr, "sonde: %s\n", err);
		return NULL;
	}
	return fs;
}

/* -l 'usdt:FILE[:PATTERN[:PATTERN]]': each file's probes, each once
 * however many locations it has.  One PATTERN matches the name or
 * "provider:name"; two match provider and name. */
int ulist_usdt(const struct probe_ops *ops, const char *pattern,
	       bool verbose, int pid)
{
	struct arena a = { 0 };
	char *prov, *name;
	const char *file = fields(&a, pattern ? pattern : "usdt:", &prov,
				  &name);
	struct ufiles *fs = files(&a, ops->name, file, pid);
	int rc = fs ? 0 : 1;

	if (prov && !name) {	/* one PATTERN: the name */
		name = prov;
		prov = NULL;
	}
	for (int i = 0; fs && i < fs->n; i++) {
		struct ulist u = { &a, VEC_INIT(struct usdt_row) };
		int nbad, r = usdt_notes(fs->v[i].path, NULL, NULL, usdt_row, &u,
					 &nbad);

		if (r < 0 && fs->how == ONE_FILE) {
			fprintf(stderr, "sonde: usdt: %s: %s\n", fs->v[i].path,
				ufiles_error(r));
			rc = 1;
		}
		if (u.rows.len)
			qsort(u.rows.data, u.rows.len, sizeof(struct usdt_row),
			      row_cmp);
		for (size_t k = 0; k < u.rows.len; k++) {
			struct usdt_row *row = &VEC_AT(&u.rows, struct usdt_row, k);
			char both[512];

			snprintf(both, sizeof(both), "%s:%s", row->provider,
				 row->name);
			if (prov ? (*prov && fnmatch(prov, row->provider, 0)) ||
				   !usdt_name_matches(name, row->name) :
			    name && !usdt_name_matches(name, row->name) &&
			    fnmatch(name, both, 0))
				continue;
			print_row(row, fs->v[i].shown, verbose);
		}
		if (nbad)
			fprintf(stderr, "sonde: usdt: %s: %d corrupt note%s skipped\n",
				fs->v[i].path, nbad, nbad == 1 ? "" : "s");
		vec_free(&u.rows);
	}
	arena_free(&a);
	return rc;
}

struct ufuncs_list {
	struct arena *a;
	struct vec names;	/* const char * */
};

static void add_name(void *arg, const struct elf_func *f)
{
	struct ufuncs_list *l = arg;

	*(const char **)vec_push(&l->names) = arena_strdup(l->a, f->name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -l 'uprobe:FILE[:FUNC]': the functions of each file, in name order. */
int ulist_uprobe(const struct probe_ops *ops, const char *pattern,
		 bool verbose, int pid)
{
	struct arena a = { 0 };
	char *func, *extra;
	const char *file = fields(&a, pattern ? pattern : "uprobe:", &func,
				  &extra);
	struct ufiles *fs = files(&a, ops->name, file, pid);
	int rc = fs ? 0 : 1;

	(void)verbose;
	for (int i = 0; fs && i < fs->n; i++) {
		struct ufuncs_list l = { &a, VEC_INIT(const char *) };
		int r = elf_functions(fs->v[i].path, func && *func ? func : "*",
				      add_name, &l);

		if (r < 0 && fs->how == ONE_FILE) {
			fprintf(stderr, "sonde: %s: cannot read %s: %s\n",
				ops->name, fs->v[i].path, ufiles_error(r));
			rc = 1;
		}
		if (l.names.len)
			qsort(l.names.data, l.names.len, sizeof(const char *),
			      name_cmp);
		for (size_t k = 0; k < l.names.len; k++)
			printf("%s:%s:%s\n", ops->name, fs->v[i].shown,
			       VEC_AT(&l.names, const char *, k));
		vec_free(&l.names);
	}
	arena_free(&a);
	return rc;
}
