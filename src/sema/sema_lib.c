/* sema_lib.c - the checks of the functions today's standard library
 * adds beside its macros (the .bt files of src/stdlib): the type predicates
 * (is_integer, is_str, ...), answered here as constants, so that the
 * argument is never evaluated; fail() and static_assert(), errors of
 * the compile where the code that calls them is live; and
 * signal_name() and syscall_name(), numbers printed as text by user
 * space, as strerror(). */
#include "sema/sema_int.h"

#include <stdio.h>
#include <string.h>

#include "catalog/btf.h"
#include "lang/lex.h"

static struct type *const_bool(struct node *n, bool v)
{
	n->is_const = 1;
	n->cval = v;
	return set(n, ty_int(1, false));
}

static bool is_literal(const struct node *a)
{
	if (a->kind == N_UNOP && a->op == T_MINUS)
		a = a->a;
	return a->kind == N_INT || a->kind == N_STR ||
	       a->kind == N_POSITIONAL ||
	       (a->kind == N_BUILTIN && (!strcmp(a->name, "true") ||
					 !strcmp(a->name, "false")));
}

static bool string_like(const struct type *t)
{
	return t->kind == TY_STR ||
	       (t->kind == TY_ARRAY && t->of && t->of->kind == TY_INT &&
		t->of->size == 1) ||
	       (t->kind == TY_PTR && t->pointee && t->pointee->kind == TY_INT &&
		t->pointee->size == 1);
}

/* kfunc_exist("NAME"), kfunc_allowed("NAME"): whether the kernel's BTF
 * has the function NAME; sonde does not call kfuncs, so it cannot tell
 * the probes that may from those that may not: allowed is exists. */
static struct type *kfunc(struct sema *s, struct node *n)
{
	const char **names;
	struct type **types, *ret;
	int id;

	if (!sema_literal(s, n->args[0])) {
		ERR(s, n->args[0]->loc, E_ARGS,
		    "%s() takes the function's name as a string literal", n->name);
		return set(n, &ty_error);
	}
	return const_bool(n, btf_func_args(s->c, n->args[0]->name, &names,
					   &types, &ret, &id) >= 0);
}

/* is_integer(e), is_unsigned_integer(e), is_ptr(e), is_str(e),
 * is_array(e), is_literal(e): constants of the compile, of E's type;
 * assert_str(e): an error unless E is string-like;
 * __builtin_has_cpid(): whether -c gives a child (the has_cpid macro). */
struct type *call_typepred(struct sema *s, struct node *n)
{
	struct node *a = n->nargs ? n->args[0] : NULL;
	struct type *t;

	if (n->builtin == F_HAS_CPID)
		return const_bool(n, s->c->has_command);
	if (n->builtin == F_DEFAULT_STRLEN) {
		const_bool(n, false);
		n->cval = s->c->strlen_;
		return set(n, ty_int(8, false));
	}
	if (n->builtin == F_KFUNC_EXIST || n->builtin == F_KFUNC_ALLOWED)
		return kfunc(s, n);
	t = sema_expr(s, a);
	if (is_err(t))
		return set(n, &ty_error);
	switch (n->builtin) {
	case F_IS_INTEGER:
		return const_bool(n, t->kind == TY_INT);
	case F_IS_UNSIGNED:
		return const_bool(n, t->kind == TY_INT && !t->is_signed);
	case F_IS_PTR:
		return const_bool(n, t->kind == TY_PTR);
	case F_IS_STR:
		return const_bool(n, t->kind == TY_STR);
	case F_IS_ARRAY:
		return const_bool(n, t->kind == TY_ARRAY);
	case F_IS_LITERAL:
		return const_bool(n, is_literal(a));
	default:		/* F_ASSERT_STR */
		if (!string_like(t) && !s->dead)
			ERR(s, a->loc, E_TYPE, "a string is expected here, not %s",
			    type_name(t));
		return set(n, &ty_void);
	}
}

/* The conversions are the format's own, with "ll" or "s" put in to
 * fit the argument: -Wformat-nonliteral cannot see that. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
/* The text of fail()'s message: the format with its arguments, which
 * must be literals (integers or strings). */
static bool format_now(struct sema *s, struct node *n, char *buf, size_t cap)
{
	const char *f = n->args[0]->name, *end = f + n->args[0]->len;
	size_t len = 0;
	int k = 1;

	while (f < end && len + 1 < cap) {
		char spec[32], conv;
		size_t sl = 0;
		struct node *a;
		int w;

		if (*f != '%' || f + 1 >= end || f[1] == '%') {
			buf[len++] = *f;
			f += *f == '%' ? 2 : 1;
			continue;
		}
		spec[sl++] = *f++;
		while (f < end && strchr("-+ #0123456789.", *f) && sl < 20)
			spec[sl++] = *f++;
		while (f < end && strchr("hlzjt", *f))
			f++;
		conv = f < end ? *f++ : 'd';
		if (k >= n->nargs) {
			ERR(s, n->args[0]->loc, E_FORMAT,
			    "the format of fail() has more conversions than arguments");
			return false;
		}
		a = n->args[k++];
		if (a->kind != N_STR && (a->kind != N_POSITIONAL || conv != 's'))
			sema_expr(s, a);
		if (a->kind == N_STR || (a->kind == N_POSITIONAL && conv == 's')) {
			if (!sema_literal(s, a))
				return false;
			spec[sl++] = 's';
			spec[sl] = 0;
			w = snprintf(buf + len, cap - len, spec, a->name);
		} else if (a->is_const) {
			if (!strchr("diouxXc", conv))
				conv = 'd';
			spec[sl++] = 'l';
			spec[sl++] = 'l';
			spec[sl++] = conv;
			spec[sl] = 0;
			w = snprintf(buf + len, cap - len, spec,
				     (long long)a->cval);
		} else {
			ERR(s, a->loc, E_ARGS,
			    "fail() takes literals only: it is evaluated by the compile");
			return false;
		}
		if (w > 0)
			len += (size_t)w < cap - len ? (size_t)w : cap - len - 1;
	}
	buf[len] = 0;
	return true;
}
#pragma GCC diagnostic pop

/* fail(fmt, args...): an error of the compile, unless the code that
 * calls it is dead (an if whose condition is a constant). */
struct type *call_fail(struct sema *s, struct node *n)
{
	char msg[512];

	if (!sema_literal(s, n->args[0])) {
		ERR(s, n->args[0]->loc, E_FORMAT,
		    "the format of fail() must be a string literal");
		return set(n, &ty_void);
	}
	if (format_now(s, n, msg, sizeof(msg)) && !s->dead)
		ERR(s, n->loc, E_FAIL, "%s", msg);
	return set(n, &ty_void);
}

/* static_assert(cond[, msg]): COND must be a constant, and true. */
struct type *call_static_assert(struct sema *s, struct node *n)
{
	int64_t v;

	if (n->nargs > 1 && !sema_literal(s, n->args[1])) {
		ERR(s, n->args[1]->loc, E_ARGS,
		    "static_assert()'s message must be a string literal");
		return set(n, &ty_void);
	}
	if (!sema_const_int(s, n->args[0], &v, "static_assert() condition"))
		return set(n, &ty_void);
	if (!v && !s->dead)
		ERR(s, n->loc, E_FAIL, "static assertion failed%s%s",
		    n->nargs > 1 ? ": " : "", n->nargs > 1 ? n->args[1]->name : "");
	return set(n, &ty_void);
}
