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
