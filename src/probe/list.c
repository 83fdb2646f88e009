/* list.c - sonde -l: the probes this machine offers, or those a script
 * would attach. */
#include "probe/probe.h"

#include <stdio.h>
#include <string.h>

#include "lang/ast.h"

/* The kinds that list without a file, in the order they print. */
static const enum probe_kind listed[] = {
	PK_TRACEPOINT, PK_RAWTP, PK_SOFTWARE, PK_HARDWARE,
};

int probe_list(const char *pattern, bool verbose, int pid)
{
	struct arena a = { 0 };
	const struct probe_ops *o;
	int rc = 0;

	/* usdt:FILE..., uprobe:FILE...: the notes or functions of one
	 * file */
	if (pattern && (o = probe_ops_named(pattern, strcspn(pattern, ":"))) &&
	    (o->kind == PK_USDT || o->kind == PK_UPROBE ||
	     o->kind == PK_URETPROBE) && pattern[strcspn(pattern, ":")] == ':') {
		rc = o->list(o, pattern, verbose, pid);
		fflush(stdout);
		return rc;
	}
	/* A bare word lists everything that contains it. */
	if (pattern && !strpbrk(pattern, "*?[:"))
		pattern = arena_printf(&a, "*%s*", pattern);
	for (size_t i = 0; i < ARRAY_SIZE(listed); i++) {
		o = probe_kind_ops(listed[i]);
		rc |= o->list(o, pattern, verbose, pid);
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
