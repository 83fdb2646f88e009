/* sema_dstr.c - the checks of DTrace's string subroutines, D only
 * (sema_func_find() hides them from bpftrace scripts): strjoin,
 * substr, index, rindex, strchr, strrchr, basename, dirname, lltostr,
 * toupper and tolower.  Part of sema (sema.c); the checkers are named
 * by funcs.def, the code is bpf/cg_dstr.c's.
 *
 * A result is a string value sized by what it can hold, not D's
 * strsize: a substring is no longer than its string, a join than its
 * two parts, so short strings stay short on the BPF stack and in map
 * keys. */
#include "sema/sema.h"
#include "sema/sema_int.h"

/* The longest lltostr(): 64 binary digits and the NUL, or "-" and 19
 * decimal digits, "0x" and 16 hex digits, "0" and 22 octal digits. */
#define LLTOSTR_SIZE 66

/* Argument I of N, which must be a string; NULL after an error. */
static struct type *str_arg(struct sema *s, struct node *n, int i)
{
	struct type *t = sema_expr(s, n->args[i]);

	if (is_err(t))
		return NULL;
	if (t->kind != TY_STR) {
		ERR(s, n->args[i]->loc, E_TYPE,
		    "%s() argument %d must be a string, not %s", n->name,
		    i + 1, type_name(t));
		return NULL;
	}
	return t;
}

/* Argument I of N, which must be an integer. */
static bool int_arg(struct sema *s, struct node *n, int i)
{
	struct type *t = sema_expr(s, n->args[i]);

	if (is_err(t))
		return false;
	if (!is_int(t)) {
		ERR(s, n->args[i]->loc, E_TYPE,
		    "%s() argument %d must be an integer, not %s", n->name,
		    i + 1, type_name(t));
		return false;
	}
	return true;
}

/* Every argument from FIRST on is an integer: all checked, so that
 * each error is reported. */
static bool int_args(struct sema *s, struct node *n, int first)
{
	bool ok = true;

	for (int i = first; i < n->nargs; i++)
		ok &= int_arg(s, n, i);
	return ok;
}

/* strjoin(a, b): a then b, as long as both fit D's string size. */
struct type *call_strjoin(struct sema *s, struct node *n)
{
	struct type *a = str_arg(s, n, 0), *b = str_arg(s, n, 1);
	int size;

	if (!a || !b)
		return set(n, &ty_error);
	size = a->size + b->size - 1;
	if (size > s->c->strlen_)
		size = s->c->strlen_;
	return set(n, str_type(s, size));
}

/* substr(s, index[, length]), strchr(s, c), strrchr(s, c), toupper(s)
 * and tolower(s): a part or a copy of S, at most S's size. */
struct type *call_substr(struct sema *s, struct node *n)
{
	struct type *t = str_arg(s, n, 0);
	bool ok = int_args(s, n, 1);

	if (!t || !ok)
		return set(n, &ty_error);
	return set(n, str_type(s, t->size));
}

struct type *call_strchr(struct sema *s, struct node *n)
{
	return call_substr(s, n);
}

struct type *call_toupper(struct sema *s, struct node *n)
{
	return call_substr(s, n);
}

/* index(s, t[, start]), rindex(s, t[, start]): an int, -1 when T is
 * not in S. */
struct type *call_index(struct sema *s, struct node *n)
{
	struct type *a = str_arg(s, n, 0), *b = str_arg(s, n, 1);
	bool ok = int_args(s, n, 2);

	if (!a || !b || !ok)
		return set(n, &ty_error);
	return set(n, &ty_s64);
}

/* basename(s), dirname(s): a part of S, or "." (two bytes). */
struct type *call_basename(struct sema *s, struct node *n)
{
	struct type *t = str_arg(s, n, 0);

	if (!t)
		return set(n, &ty_error);
	return set(n, str_type(s, t->size < 2 ? 2 : t->size));
}

/* lltostr(n[, base]): N in BASE (2 to 36, else DTrace's run-time
 * error, here an empty string), unsigned but in base 10. */
struct type *call_lltostr(struct sema *s, struct node *n)
{
	if (!int_args(s, n, 0))
		return set(n, &ty_error);
	if (n->nargs == 2 && n->args[1]->is_const &&
	    (n->args[1]->cval < 2 || n->args[1]->cval > 36)) {
		ERR(s, n->args[1]->loc, E_ARGS,
		    "lltostr() base %lld is outside 2..36",
		    (long long)n->args[1]->cval);
		return set(n, &ty_error);
	}
	return set(n, str_type(s, LLTOSTR_SIZE));
}
