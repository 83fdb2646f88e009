/* sema_dstr.c - the checks of DTrace's string subroutines, D only
 * (sema_func_find() hides them from bpftrace scripts): strjoin,
 * substr, index, rindex, strchr, strrchr, basename, dirname, lltostr,
 * toupper, tolower and strtok.  Part of sema (sema.c); the checkers are named
 * by funcs.def, the code is bpf/cg_dstr.c's; strtok also keeps what
 * is left of its string in a variable of its own.
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
		sema_d_proto_arg(s, n, i, "char *");
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
		sema_d_proto_arg(s, n, i, "int");
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

/* strtok(s, delims), strtok(NULL, delims): the next token of S, or of
 * what the last strtok() left when NULL.  What is left is a variable
 * the call adds as its third argument (a name no script can write),
 * so that it lives in the probe's frame like the clause's own:
 * DTrace's saved pointer, which is valid within one probe's firing. */
struct type *call_strtok(struct sema *s, struct node *n)
{
	struct node *vn = n->extra, *a = n->args[0];
	struct type *t = sema_expr(s, a), *d = str_arg(s, n, 1);
	struct type *st = str_type(s, s->c->strlen_);
	struct var *v;

	if (n->nargs == 3 && n->args[2] != vn) {
		ERR(s, n->loc, E_ARGS, "strtok() takes 2 arguments, 3 given");
		return set(n, &ty_error);
	}
	if (is_err(t) || !d)
		return set(n, &ty_error);
	if (t->kind != TY_STR && !(is_int(t) && a->is_const && !a->cval)) {
		sema_d_proto_arg(s, n, 0, "char *");
		return set(n, &ty_error);
	}
	if (!vn) {
		struct node **args = arena_alloc(&s->c->arena, 3 * sizeof(*args));

		vn = arena_alloc(&s->c->arena, sizeof(*vn));
		vn->kind = N_VAR;
		vn->name = "$strtok()";
		vn->loc = n->loc;
		args[0] = n->args[0];
		args[1] = n->args[1];
		args[2] = vn;
		n->args = args;
		n->nargs = 3;
		n->extra = vn;
	}
	v = sema_var_find(s, vn->name);
	if (!v)
		v = sema_var_new(s, vn, st);
	v->defined = true;
	vn->var = v;
	vn->ty = v->ty;
	return set(n, st);
}
