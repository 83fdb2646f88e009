/* dtarget.c - the processes a D program's user-space probes are in:
 * -c's program (a script's interpreter, as dtrace's a.out is), the
 * process a provider's name gives (pid1234, pid$1), and the predicate
 * that keeps a clause to that process's events. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/dparse.h"

/* The first word of CMD, as the shell would find it. */
static const char *find_program(struct compiler *c, const char *cmd)
{
	const char *path = getenv("PATH");
	size_t n;
	char *word;

	cmd += strspn(cmd, " \t");
	n = strcspn(cmd, " \t\n");
	word = arena_strndup(&c->arena, cmd, n);
	if (strchr(word, '/') || !path)
		return word;
	while (*path) {
		size_t l = strcspn(path, ":");
		char *f = arena_printf(&c->arena, "%.*s/%s", (int)l, path, word);

		if (access(f, X_OK) == 0)
			return f;
		path += l + (path[l] == ':');
	}
	return word;
}

/* -c CMD: the program its process runs, as the shell would find it:
 * a script's interpreter (#!/bin/bash, #!/usr/bin/env python3), as
 * dtrace's a.out is (NULL: none). */
static const char *command_path(struct compiler *c)
{
	const char *prog;
	char line[256];
	FILE *f;

	if (!c->command)
		return NULL;
	prog = find_program(c, c->command);
	for (int depth = 0; depth < 4 && (f = fopen(prog, "r")); depth++) {
		bool script = fgets(line, sizeof(line), f) &&
			      line[0] == '#' && line[1] == '!';
		const char *interp = line + 2 + strspn(line + 2, " \t");

		fclose(f);
		if (!script || *interp != '/')
			break;
		prog = find_program(c, interp);
		if (!strcmp(prog, "/usr/bin/env")) {
			interp += strcspn(interp, " \t\n");
			interp += strspn(interp, " \t");
			if (*interp == '-' || *interp == '\n' || !*interp)
				break;
			prog = find_program(c, interp);
		}
	}
	return prog;
}

/* The process a provider's name gives: pid1234, or pid$1 with the
 * macro argument; 0 for none ($target: -p, -c decide). */
long d_named_pid(struct compiler *c, const char *desc)
{
	const char *d = desc ? desc : "", *colon = strchr(d, ':'), *p;
	size_t n = colon ? (size_t)(colon - d) : strlen(d);
	int fields = 1;
	char *end;
	long v;

	for (const char *q = d; *q; q++)
		fields += *q == ':';
	if (fields < 4)		/* no provider field: profile-997 is a name */
		return 0;
	p = memchr(d, '$', n);
	if (p && p + 1 < d + n && p[1] >= '1' && p[1] <= '9') {
		v = strtol(p + 1, &end, 10);
		if (end == d + n && v <= c->nparams)
			return strtol(c->params[v - 1], NULL, 10);
		return 0;
	}
	if (p)
		return 0;
	p = d + n;
	while (p > d && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return p < d + n ? strtol(p, NULL, 10) : 0;
}

/* The clause P fires only in process PID. */
static void only_pid(struct compiler *c, struct node *p, long pid)
{
	struct node *b = arena_alloc(&c->arena, sizeof(*b));
	struct node *id = arena_alloc(&c->arena, sizeof(*id));
	struct node *v = arena_alloc(&c->arena, sizeof(*v));

	id->kind = N_BUILTIN;
	id->name = "pid";
	id->loc = p->loc;
	v->kind = N_INT;
	v->ival = (uint64_t)pid;
	v->loc = p->loc;
	b->kind = N_BINOP;
	b->op = T_EQ;
	b->a = id;
	b->b = v;
	b->loc = p->loc;
	if (p->a) {
		struct node *both = arena_alloc(&c->arena, sizeof(*both));

		both->kind = N_LAND;
		both->a = b;
		both->b = p->a;
		both->loc = p->loc;
		b = both;
	}
	p->a = b;
}

/* PROV$target with -c: the file is the command's program, with
 * PROV1234 that process's; a pid provider's a.out or empty module
 * probe/ finds (c->d_program, -p's process, d_named_pid()). */
void d_target_files(struct compiler *c, struct node *p)
{
	static const char *const kinds[] = {
		"uprobe::", "uretprobe::", "uprobe:a.out:", "uretprobe:a.out:",
		"usdt::"
	};
	const char *file = command_path(c);

	c->d_program = file;
	for (int i = 0; i < p->nargs; i++) {
		struct node *ap = p->args[i];
		const char *f = !strncmp(ap->name, "usdt:", 5) ? file : NULL;
		bool user = !strncmp(ap->name, "uprobe:", 7) ||
			    !strncmp(ap->name, "uretprobe:", 10) ||
			    !strncmp(ap->name, "usdt:", 5);
		long pid = user ? d_named_pid(c, ap->tyname) : 0;

		/* pid1234, pid$1: only that process's events (the
		 * clause's predicate says so); its files, probe/ finds */
		if (pid > 0) {
			only_pid(c, p, pid);
			if (f)
				f = arena_printf(&c->arena, "/proc/%ld/exe", pid);
		}
		if (!f)
			continue;
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			size_t l = strlen(kinds[k]);

			if (!strncmp(ap->name, kinds[k], l)) {
				ap->name = arena_printf(&c->arena, "%.*s%s%s",
							(int)strcspn(ap->name, ":") + 1,
							ap->name, f,
							ap->name + l - 1);
				break;
			}
		}
	}
}

