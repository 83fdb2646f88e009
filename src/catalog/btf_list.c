/* btf_list.c - sonde -l 'struct NAME': the kernel's struct, union and
 * enum types by name, and with -v their C definitions as libbpf's
 * btf_dump writes them (bpftrace 0.17 prints the same). */
#include "catalog/btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct text {
	char *p;
	size_t n, cap;
};

__attribute__((format(printf, 2, 0)))
static void put(void *ctx, const char *fmt, va_list ap)
{
	struct text *t = ctx;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	while (t->n + (size_t)n + 1 > t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->p = xrealloc(t->p, t->cap);
	}
	vsnprintf(t->p + t->n, (size_t)n + 1, fmt, ap);
	t->n += (size_t)n;
}

__attribute__((format(printf, 2, 3)))
static void put_text(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put(t, fmt, ap);
	va_end(ap);
}

/* The definition of type ID, named NAME ("struct list_head"): btf_dump
 * writes the types it needs first, then it, then a blank line. */
static void print_definition(struct btf *b, int id, const char *name)
{
	struct text t = { 0 };
	struct btf_dump *d = btf_dump__new(b, put, &t, NULL);
	char head[512];
	const char *at, *end;

	if (!d)
		return;
	if (btf_dump__dump_type(d, (unsigned)id) == 0 && t.p) {
		snprintf(head, sizeof(head), "%s {\n", name);
		at = strstr(t.p, head);
		while (at && at != t.p && at[-1] != '\n')
			at = strstr(at + 1, head);
		end = at ? strstr(at, "\n};\n") : NULL;
		if (end)
			printf("%.*s\n", (int)(end + 4 - at), at);
	}
	btf_dump__free(d);
	free(t.p);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int btf_list_types(const char *pattern, bool verbose)
{
	struct btf *b = btf__load_vmlinux_btf();
	const char *sp = strchr(pattern, ' '), *glob;
	size_t klen = sp ? (size_t)(sp - pattern) : 0;
	char **names = NULL;
	int *ids = NULL, n = 0, cap = 0, count;

	if (!b) {
		fprintf(stderr, "sonde: this kernel has no BTF (/sys/kernel/btf/vmlinux), so its types cannot be listed\n");
		return 1;
	}
	glob = sp ? sp + 1 : pattern;
	count = (int)btf__type_cnt(b);
	for (int id = 1; id < count; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *kind = btf_is_struct(t) ? "struct" :
				   btf_is_union(t) ? "union" :
				   btf_is_enum(t) || btf_is_enum64(t) ? "enum" : NULL;
		const char *nm = btf__name_by_offset(b, t->name_off);

		if (!kind || !nm || !*nm || strlen(kind) != klen ||
		    strncmp(kind, pattern, klen) || fnmatch(glob, nm, 0))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xrealloc(names, sizeof(*names) * (size_t)cap);
			ids = xrealloc(ids, sizeof(*ids) * (size_t)cap);
		}
		names[n] = xmalloc(strlen(kind) + strlen(nm) + 2);
		sprintf(names[n], "%s %s", kind, nm);
		ids[n++] = id;
	}
	/* sorted by name, each once (a name may have several ids) */
	for (int i = 0; i < n; i++) {	/* the id after the name */
		char *s = xmalloc(strlen(names[i]) + 16);

		sprintf(s, "%s%c%d", names[i], 0, ids[i]);
		free(names[i]);
		names[i] = s;
	}
	qsort(names, (size_t)n, sizeof(*names), str_cmp);
	for (int i = 0; i < n; i++) {
		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		if (verbose)
			print_definition(b, atoi(names[i] + strlen(names[i]) + 1),
					 names[i]);
		else
			printf("%s\n", names[i]);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(ids);
	btf__free(b);
	return 0;
}

/* A parameter as bpftrace 0.17 lists it: its type as a declaration
 * without a name ("struct sock *"), a blank, NAME; void for ID 0. */
static void print_param(struct btf_dump *d, struct text *t, int id,
			const char *name)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, o);

	t->n = 0;
	if (t->p)
		t->p[0] = 0;
	o.field_name = "";
	if (!id)
		put_text(t, "void");
	else if (btf_dump__emit_type_decl(d, (unsigned)id, &o))
		return;
	printf("    %s %s\n", t->p ? t->p : "", name);
}

int btf_list_funcs(const char *kind, const char *pattern, bool verbose,
		   bool retval, bool (*keep)(void *arg, const char *name),
		   void *arg)
{
	struct btf *b = btf__load_vmlinux_btf();
	char **names = NULL, full[512];
	int n = 0, cap = 0, count;
	struct text t = { 0 };
	struct btf_dump *d;

	if (!b) {
		fprintf(stderr, "sonde: this kernel has no BTF (/sys/kernel/btf/vmlinux), so its %s functions cannot be listed\n",
			kind);
		return 1;
	}
	count = (int)btf__type_cnt(b);
	for (int id = 1; id < count; id++) {
		const struct btf_type *ft = btf__type_by_id(b, (unsigned)id);
		const char *nm = btf__name_by_offset(b, ft->name_off);

		if (!btf_is_func(ft) || !nm || !*nm)
			continue;
		snprintf(full, sizeof(full), "%s:%s", kind, nm);
		if ((pattern && fnmatch(pattern, full, 0)) ||
		    (keep && !keep(arg, nm)))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			names = xrealloc(names, sizeof(*names) * (size_t)cap);
		}
		names[n] = xmalloc(strlen(nm) + 16);
		sprintf(names[n], "%s%c%d", nm, 0, id);	/* the id after it */
		n++;
	}
	qsort(names, (size_t)n, sizeof(*names), str_cmp);
	d = verbose ? btf_dump__new(b, put, &t, NULL) : NULL;
	for (int i = 0; i < n; i++) {
		const struct btf_type *ft, *proto;
		const struct btf_param *pm;

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		printf("%s:%s\n", kind, names[i]);
		if (!d)
			continue;
		ft = btf__type_by_id(b, (unsigned)atoi(names[i] + strlen(names[i]) + 1));
		proto = btf__type_by_id(b, ft->type);
		if (!proto || !btf_is_func_proto(proto))
			continue;
		pm = btf_params(proto);
		for (int k = 0; k < btf_vlen(proto); k++)
			print_param(d, &t, (int)pm[k].type,
				    btf__name_by_offset(b, pm[k].name_off));
		if (retval)
			print_param(d, &t, (int)proto->type, "retval");
	}
	if (d)
		btf_dump__free(d);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(t.p);
	btf__free(b);
	return 0;
}
