/* sema_dmsg.c - D's words for what sema finds wrong, where dtrace's
 * own messages name types and prototypes its way (tests and users grep
 * for them). */
#include "sema/sema_int.h"

/* A type as D names it in its messages. */
const char *sema_d_type_name(const struct type *t)
{
	static const char *const s[] = { "char", "short", "", "int", "", "", "",
					 "long" };
	static const char *const u[] = { "uchar_t", "ushort_t", "", "uint_t", "",
					 "", "", "ulong_t" };

	if (t->kind == TY_STR)
		return "string";
	if (t->kind == TY_INT && t->size >= 1 && t->size <= 8 && *s[t->size - 1])
		return t->is_signed ? s[t->size - 1] : u[t->size - 1];
	return type_name(t);
}

/* D's prototypes where they differ from bpftrace's (exit takes its
 * status), and D's message for a wrong count: "exit( ) prototype
 * mismatch: 0 args passed, 1 expected".  True after reporting. */
bool sema_d_arity(struct sema *s, struct node *n, int f)
{
	int lo = sema_func_min_args(f), hi = sema_func_max_args(f);
	const char *name = n->name;

	if (f == F_EXIT)
		lo = hi = 1;
	if (n->nargs >= lo && n->nargs <= hi)
		return false;
	ERR(s, n->loc, E_ARGS, "%s( ) prototype mismatch: %d arg%s passed, %s%d expected",
	    name, n->nargs, n->nargs == 1 ? "" : "s",
	    lo == hi ? "" : n->nargs < lo ? "at least " : "at most ",
	    n->nargs < lo ? lo : hi);
	return true;
}
