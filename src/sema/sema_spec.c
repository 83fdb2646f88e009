/* sema_spec.c - D's speculations: speculation() gives a speculation's
 * id, speculate(id), commit(id) and discard(id) take one.  They exist
 * only in D (sonde dtrace); the rules of their place in a clause are
 * lang/dlower.c's, made before D's names are lowered. */
#include "sema/sema_int.h"

#include <string.h>

/* bpftrace has no such function: the same error as any unknown name. */
static bool not_d(struct sema *s, struct node *n)
{
	struct loc l = n->loc;

	if (s->c->lang_d)
		return false;
	for (int i = 0; i < n->nargs; i++)
		sema_expr(s, n->args[i]);
	l.len = (int)strlen(n->name);
	ERR(s, l, E_FUNC, "unknown function '%s'", n->name);
	return true;
}

/* speculation(): an int, 0 when no speculation is free. */
struct type *call_speculation(struct sema *s, struct node *n)
{
	if (not_d(s, n))
		return set(n, &ty_error);
	s->c->uses_spec = true;
	return set(n, &ty_s32);
}

/* speculate(id), commit(id), discard(id): id an integer. */
struct type *call_spec(struct sema *s, struct node *n)
{
	struct type *t;

	if (not_d(s, n))
		return set(n, &ty_error);
	s->c->uses_spec = true;
	t = sema_expr(s, n->args[0]);
	if (!is_err(t) && t->kind != TY_INT)
		ERR(s, n->args[0]->loc, E_TYPE,
		    "%s( ) argument #1 is incompatible with prototype: prototype: int, argument: %s",
		    n->name, type_name(t));
	return set(n, &ty_void);
}
