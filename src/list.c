/* list.c - sonde -l: the probes this machine offers, or those a script
 * would attach. */
#include "list.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "probes.h"
#include "tracefs.h"

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

static void rawtracepoint(void *arg, const char *cat, const char *name)
{
	struct lister *l = arg;
	char full[512];

	(void)cat;
	snprintf(full, sizeof(full), "rawtracepoint:%s", name);
	if (match(l, full))
		print_line(l, full);
}

int list_probes(const char *pattern, bool verbose)
{
	struct lister l;
	const char *why = NULL;

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
		if (pattern && !strncmp(pattern, "rawtracepoint:", 14))
			tp_list(l.dir, "*", "*", rawtracepoint, &l);
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
			for (int k = 0; k < n; k++)
				puts(ps[k].name);
		}
	}
	fflush(stdout);
}
