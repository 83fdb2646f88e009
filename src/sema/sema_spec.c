/* sema_spec.c - D's speculations: speculation() gives a speculation's
 * id, speculate(id), commit(id) and discard(id) take one.  They exist
 * only in D (funcs.def's D-only rows: sema_call() does not know them in
 * bpftrace scripts); the rules of their place in a clause are
 * lang/dspec.c's, made before D's names are lowered. */
#include "sema/sema_int.h"

/* speculation(): an int, 0 when no speculation is free. */
struct type *call_speculation(struct sema *s, struct node *n)
{
	s->c->uses_spec = true;
	return set(n, &ty_s32);
}

/* speculate(id), commit(id), discard(id): id an integer. */
struct type *call_spec(struct sema *s, struct node *n)
{
	struct type *t;

	s->c->uses_spec = true;
	t = sema_expr(s, n->args[0]);
	if (!is_err(t) && t->kind != TY_INT)
		ERR(s, n->args[0]->loc, E_TYPE,
		    "%s( ) argument #1 is incompatible with prototype: prototype: int, argument: %s",
		    n->name, type_name(t));
	return set(n, &ty_void);
}
