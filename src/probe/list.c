/* list.c - sonde -l: the probes this machine offers, or those a script
 * would attach. */
#include "probe/probe.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "catalog/btf.h"
#include "lang/ast.h"

/* The kinds that list without a file, in the order they print. */
static const enum probe_kind listed[] = {
	PK_KPROBE, PK_TRACEPOINT, PK_RAWTP, PK_SOFTWARE, PK_HARDWARE,
	PK_FENTRY, PK_LSM, PK_INTERVAL, PK_PROFILE,
};

/* The kinds whose probes are in files (uprobe, uretprobe, usdt), in
 * the order they print. */
static const enum probe_kind in_files[] = { PK_UPROBE, PK_URETPROBE, PK_USDT };

/* -l KINDS:FILE...: each file kind that KINDS names or matches. */
static int list_files(const char *pattern, bool verbose, int pid)
{
	size_t n = strcspn(pattern, ":");
	char kinds[64];
	int rc = 0;

	snprintf(kinds, sizeof(kinds), "%.*s", (int)(n < 63 ? n : 63), pattern);
	for (size_t i = 0; i < ARRAY_SIZE(in_files); i++) {
		const struct probe_ops *o = probe_kind_ops(in_files[i]);
		char text[4096];

		if (fnmatch(kinds, o->name, 0) &&
		    !(o->alias && !strcmp(kinds, o->alias)))
			continue;
		snprintf(text, sizeof(text), "%s%s", o->name, pattern + n);
		rc |= o->list(o, text, verbose, pid);
	}
	return rc;
}

/* Is PATTERN a file kind's, or a wildcard over kinds with a file
 * field ('*:./prog:*')? */
static bool names_files(const char *pattern)
{
	size_t n = strcspn(pattern, ":");
	const struct probe_ops *o = probe_ops_named(pattern, n);
	const char *file = pattern + n;

	if (!*file)
		return false;
	if (o)
		return o->kind == PK_UPROBE || o->kind == PK_URETPROBE ||
		       o->kind == PK_USDT;
	file++;
	/* '*:FILE:*', '*:*:*'; not '*ware:*', a pattern over names */
	return memchr(pattern, '*', n) && (*file == '/' || *file == '.' ||
					   (*file == '*' && strchr(file, ':')));
}

int probe_list(const char *pattern, bool verbose, int pid)
{
	struct arena a = { 0 };
	const struct probe_ops *o;
	int rc = 0;

	if (pattern && (!strncmp(pattern, "struct ", 7) ||
			!strncmp(pattern, "union ", 6) ||
			!strncmp(pattern, "enum ", 5))) {
		rc = btf_list_types(pattern, verbose);
	} else if (pattern && names_files(pattern)) {
		rc = list_files(pattern, verbose, pid);
	} else if (!pattern && pid > 0) {
		/* -p alone: the process's functions and usdt probes */
		rc = list_files("*:*", verbose, pid);
	} else {
		size_t n = pattern ? strcspn(pattern, ":") : 0;

		/* A bare word lists everything that contains it. */
		if (pattern && !strpbrk(pattern, "*?[:"))
			pattern = arena_printf(&a, "*%s*", pattern);
		o = pattern && pattern[n] ? probe_ops_named(pattern, n) : NULL;
		if (o) {
			/* one kind, by any of its names (t:, kfunc:) */
			const char *kind = o->alias2 && strlen(o->alias2) == n &&
					   !strncmp(pattern, o->alias2, n) ?
					   o->alias2 : o->name;

			if (o->list)
				rc = o->list(o, arena_printf(&a, "%s%s", kind,
							     pattern + n),
					     verbose, pid);
		} else {
			for (size_t i = 0; i < ARRAY_SIZE(listed); i++) {
				o = probe_kind_ops(listed[i]);
				rc |= o->list(o, pattern, verbose, pid);
			}
		}
	}
	arena_free(&a);
	fflush(stdout);
	return rc;
}

void probe_list_script(struct compiler *c)
{
	for (struct node *p = c->ast->probes; p; p = p->next) {
		for (int i = 0; i < p->nargs; i++) {
			struct probe_spec *ps;
			int n;

			if (probe_expand(c, p->args[i], &ps, &n, NULL))
				continue;
			/* a usdt probe's locations share its name */
			for (int k = 0; k < n; k++)
				if (!k || strcmp(ps[k].name, ps[k - 1].name))
					puts(ps[k].name);
		}
	}
	fflush(stdout);
}
