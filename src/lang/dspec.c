/* dspec.c - where D's speculation calls may stand in a clause, with
 * DTrace's tags and words (dtrace-utils' clause flags): one
 * speculate() per clause, before any data-recording action and not
 * after commit(); no aggregating or destructive action nor exit()
 * after it; no data-recording action and commit() in one clause.
 * Errors are E_CONTEXT with DTrace's tag (diag_error_d()).
 * Then speculate(E) becomes `$__spec = (int64)E; speculate($__spec)`:
 * code generation puts the speculation's tag in that variable and tags
 * the clause's later records with it (bpf/cg_spec.c).  Run on each clause before lowering, on D's own
 * names. */
#include <string.h>

#include "lang/dparse.h"

enum { SPEC = 1, COMMIT = 2, DREC = 4, AGG = 8, DESTR = 16, EXIT = 32 };

/* What statement N does, by D's names. */
static int kind_of(const struct node *n)
{
	static const char *const drec[] = {
		"printf", "printa", "trace", "tracemem", "stack", "ustack",
		"jstack", "print", "printm", "sym", "usym", "mod", "umod",
		"uaddr", "func", "ufunc",
	};
	static const char *const destr[] = {
		"raise", "system", "stop", "chill", "copyout", "copyoutstr",
		"freopen", "breakpoint", "panic",
	};
	const char *f;

	if (n->kind == N_ASSIGN && n->a && n->a->kind == N_MAP &&
	    n->a->name[0] == '@')
		return AGG;
	if (n->kind != N_EXPRSTMT || !n->a || n->a->kind != N_CALL)
		return 0;
	f = n->a->name;
	if (!strcmp(f, "speculate"))
		return SPEC;
	if (!strcmp(f, "commit"))
		return COMMIT;
	if (!strcmp(f, "exit"))
		return EXIT | DREC;	/* exit() records its status */
	for (size_t i = 0; i < sizeof(drec) / sizeof(drec[0]); i++)
		if (!strcmp(f, drec[i]))
			return DREC;
	for (size_t i = 0; i < sizeof(destr) / sizeof(destr[0]); i++)
		if (!strcmp(f, destr[i]))
			return DESTR;
	return 0;
}

/* Whether commit() statement N commits what the clause's previous
 * commit() did (the same variable): D_COMM_COMM then; committing
 * several speculations in one clause is allowed. */
static bool same_commit(struct compiler *c, const struct node *n)
{
	const struct node *a = n->a->nargs ? n->a->args[0] : NULL;
	const struct node *prev = c->dt_last_commit;

	c->dt_last_commit = a;
	return a && prev && a->kind == prev->kind && a->name && prev->name &&
	       !strcmp(a->name, prev->name) && a->nargs == prev->nargs;
}

/* Check statement N against the flags *SEEN of the statements before
 * it in the clause, then add its own. */
static void check(struct compiler *c, const struct node *n, int *seen,
		  int depth)
{
	int k = kind_of(n), f = *seen;
	struct loc at = n->kind == N_EXPRSTMT ? n->a->loc : n->loc;
	struct diag *d = &c->diag;

	if (k & SPEC) {
		if (f & SPEC)
			diag_error_d(d, at, E_CONTEXT, "D_SPEC_SPEC",
				     "speculate( ) may not follow speculate( )");
		else if (f & COMMIT)
			diag_error_d(d, at, E_CONTEXT, "D_SPEC_COMM",
				     "speculate( ) may not follow commit( )");
		else if (f & DREC)
			diag_error_d(d, at, E_CONTEXT, "D_SPEC_DREC",
				     "speculate( ) may not follow data-recording action(s)");
		else if (depth)
			diag_error(d, at, E_CONTEXT, "speculate( ) must be a statement of the clause itself, not inside if or a loop");
	}
	if ((k & AGG) && (f & SPEC))
		diag_error_d(d, at, E_CONTEXT, "D_AGG_SPEC",
			     "aggregating actions may not follow speculate( )");
	else if ((k & AGG) && (f & COMMIT))
		diag_error_d(d, at, E_CONTEXT, "D_AGG_COMM",
			     "aggregating actions may not follow commit( )");
	if ((k & DESTR) && (f & SPEC))
		diag_error_d(d, at, E_CONTEXT, "D_ACT_SPEC",
			     "destructive actions may not follow speculate( )");
	if ((k & EXIT) && (f & SPEC))
		diag_error_d(d, at, E_CONTEXT, "D_EXIT_SPEC",
			     "exit( ) may not follow speculate( )");
	else if ((k & DREC) && (f & COMMIT))
		diag_error_d(d, at, E_CONTEXT, "D_DREC_COMM",
			     "data-recording actions may not follow commit( )");
	if ((k & COMMIT) && same_commit(c, n) && (f & COMMIT))
		diag_error_d(d, at, E_CONTEXT, "D_COMM_COMM",
			     "commit( ) may not follow commit( )");
	else if ((k & COMMIT) && (f & DREC))
		diag_error_d(d, at, E_CONTEXT, "D_COMM_DREC",
			     "commit( ) may not follow data-recording action(s)");
	*seen |= k;
}

/* The statements of N (a statement) in order, those of nested blocks
 * (if, loops) at DEPTH + 1. */
static void walk(struct compiler *c, const struct node *n, int *seen,
		 int depth)
{
	if (!n)
		return;
	switch (n->kind) {
	case N_BLOCK:
		for (int i = 0; i < n->nargs; i++)
			walk(c, n->args[i], seen, depth);
		return;
	case N_IF: case N_WHILE: case N_FOR: case N_UNROLL:
		walk(c, n->b, seen, depth + 1);
		walk(c, n->c, seen, depth + 1);
		return;
	default:
		check(c, n, seen, depth);
	}
}

static struct node *mk(struct compiler *c, enum node_kind k, struct loc loc)
{
	struct node *n = arena_alloc(&c->arena, sizeof(*n));

	n->kind = k;
	n->loc = loc;
	return n;
}

/* speculate(E) at index I of block B: `$__spec = E;` before it, and
 * the variable its argument. */
static void split_speculate(struct compiler *c, struct node *b, int i)
{
	struct node *call = b->args[i]->a;
	struct node *set = mk(c, N_ASSIGN, call->loc);
	struct node **v;

	set->op = T_ASSIGN;
	set->a = mk(c, N_VAR, call->loc);
	set->a->name = "$__spec";
	/* int64: speculate() stores the tag there */
	set->b = mk(c, N_CAST, call->loc);
	set->b->tyname = "int64";
	set->b->a = call->args[0];
	call->args[0] = mk(c, N_VAR, call->args[0]->loc);
	call->args[0]->name = "$__spec";
	v = arena_alloc(&c->arena, sizeof(*v) * (size_t)(b->nargs + 1));
	memcpy(v, b->args, sizeof(*v) * (size_t)i);
	v[i] = set;
	memcpy(v + i + 1, b->args + i, sizeof(*v) * (size_t)(b->nargs - i));
	b->args = v;
	b->nargs++;
}

void d_spec_clause(struct compiler *c, struct node *p)
{
	int seen = 0;

	c->dt_last_commit = NULL;
	if (!p->b)
		return;
	walk(c, p->b, &seen, 0);
	if (!(seen & SPEC))
		return;
	for (int i = 0; i < p->b->nargs; i++)
		if (kind_of(p->b->args[i]) == SPEC &&
		    p->b->args[i]->a->nargs == 1) {
			split_speculate(c, p->b, i);
			return;
		}
}

int d_spec_at(const struct node *b)
{
	for (int i = 0; i < b->nargs; i++)
		if (kind_of(b->args[i]) == SPEC)
			return i + 1;
	return 0;
}
