/* sema_printf.c - the formats of printf(), system(), cat() and
 * errorf(), checked: bpftrace's (lang/printf.c's fmt_parse), and D's
 * printf() and system() formats the way DTrace checks them
 * (sema_d_printf): the format is a string constant in D's format
 * language (lang/printf.c, fmt_parse_d), every '*' and ".*" takes an int argument
 * before the value, and each value must fit its conversion.  The
 * messages and their order are DTrace's, conversions numbered from 1
 * ("%%" counts), arguments from 1 (the format).  The record is made as
 * for bpftrace's printf; out/events.c prints it with D's rules. */
#include "sema/sema.h"
#include "sema/sema_int.h"
#include "lang/printf.h"

#include <ctype.h>
#include <string.h>

/* A checked printf(FMT, ...): its event of KIND, the format and the
 * arguments recorded. */
static struct type *printf_event(struct sema *s, struct node *n,
				 enum ev_kind kind)
{
	if (s->report) {
		struct event_spec *e = sema_add_event(s, n, kind);

		e->fmt = n->args[0]->name;
		e->fmt_len = n->args[0]->len;
		sema_event_args(s, e, n->args + 1, n->nargs - 1);
	}
	return &ty_void;
}

/* Where byte OFF of the decoded string literal at LIT lies in the
 * source, for a caret under one conversion; LIT itself when the string
 * spans lines. */
static struct loc literal_loc(struct sema *s, struct loc lit, size_t off,
			      int len)
{
	struct diag_file f = diag_source(&s->c->diag, lit.file);
	const char *src = f.src, *p = src + lit.off, *end = src + f.len;
	size_t k = 0;
	struct loc l = lit;

	/* a literal from a macro's body is located at the macro's use,
	 * which is no '"' */
	if (lit.off < 0 || p >= end || *p != '"')
		return lit;
	p++;
	while (p < end) {
		if (*p == '"') {	/* "a" "b": skip to the next literal */
			p++;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p >= end || *p != '"')
				return lit;
			p++;
			continue;
		}
		if (k >= off)
			break;
		if (*p == '\n')
			return lit;
		if (*p == '\\' && p + 1 < end) {
			p++;
			if (*p == 'x') {
				p++;
				for (int i = 0; i < 2 && p < end && isxdigit((unsigned char)*p); i++)
					p++;
			} else if (*p >= '0' && *p <= '7') {
				for (int i = 0; i < 3 && p < end && *p >= '0' && *p <= '7'; i++)
					p++;
			} else {
				p++;
			}
		} else {
			p++;
		}
		k++;
	}
	l.off = (int)(p - src);
	l.col = lit.col + (l.off - lit.off);
	l.len = len > 0 ? len : 1;
	return l;
}

/* printf(fmt, ...) and system(fmt, ...): KIND is the event sent. */
struct type *sema_check_printf(struct sema *s, struct node *n,
			       enum ev_kind kind)
{
	struct node *f = n->args[0];
	struct fmt_piece pieces[128];
	int np, k = 1;
	size_t eoff;
	const char *emsg;

	if (s->c->lang_d)
		return sema_d_printf(s, n, kind);
	for (int i = 1; i < n->nargs; i++)
		sema_expr(s, n->args[i]);
	if (!sema_literal(s, f)) {
		ERR(s, f->loc, E_FORMAT, "the format of %s must be a string literal",
		    n->name);
		return &ty_void;
	}
	np = fmt_parse(f->name, f->len, pieces, (int)ARRAY_SIZE(pieces), &eoff,
		       &emsg);
	if (np < 0) {
		ERR(s, literal_loc(s, f->loc, eoff, 1), E_FORMAT, "%s", emsg);
		return &ty_void;
	}
	if (np > (int)ARRAY_SIZE(pieces)) {
		ERR(s, f->loc, E_LIMIT, "format has more than %d pieces",
		    (int)ARRAY_SIZE(pieces));
		return &ty_void;
	}
	for (int i = 0; i < np; i++) {
		struct node *a;
		struct type *t;

		if (pieces[i].want == FMT_WANT_NONE)
			continue;
		if (k >= n->nargs) {
			bool pct = false;

			/* "50% done" parses as the conversion "% d" */
			for (int j = 0; j <= i; j++)
				if (strchr(pieces[j].flags, ' '))
					pct = true;

			ERR(s, literal_loc(s, f->loc, pieces[i].off, (int)pieces[i].len),
			    E_FORMAT,
			    "format has more conversions than the %d argument%s given%s",
			    n->nargs - 1, n->nargs == 2 ? "" : "s",
			    pct ? " (write %% for a percent sign)" : "");
			return &ty_void;
		}
		a = n->args[k++];
		t = a->ty;
		if (is_err(t))
			continue;
		if (pieces[i].want == FMT_WANT_STR && !s->c->dialect_017 &&
		    (is_int(t) || t->kind == TY_TUPLE ||
		     t->kind == TY_ARRAY || t->kind == TY_STRUCT))
			;	/* 0.26: %s prints any value's text */
		else if (pieces[i].want == FMT_WANT_STR && t->kind != TY_STR &&
		    t->kind != TY_TSTAMP && t->kind != TY_KSTACK &&
		    t->kind != TY_KSYM && t->kind != TY_USYM &&
		    t->kind != TY_USERNAME && t->kind != TY_INET &&
		    t->kind != TY_MAC && t->kind != TY_STRERROR &&
		    t->kind != TY_CGPATH)
			ERR(s, a->loc, E_FORMAT,
			    "%%%c expects a string, this is %s%s", pieces[i].conv,
			    type_name(t), t->kind == TY_BUF ?
			    " (print buffers with %r)" : "");
		else if (pieces[i].want == FMT_WANT_BUF && t->kind != TY_BUF)
			ERR(s, a->loc, E_FORMAT,
			    "%%r expects a buffer (from buf()), this is %s",
			    type_name(t));
		else if (pieces[i].want == FMT_WANT_INT && !is_int(t))
			ERR(s, a->loc, E_FORMAT,
			    "%%%s expects an integer, this is %s",
			    pieces[i].conv == 'g' ? "gr" : (char[]){ pieces[i].conv, 0 },
			    type_name(t));
		else if (sema_pinned(s) &&
			 (!strchr("diuoxXcsp", pieces[i].conv) ||
			  pieces[i].prec >= 0 || strchr(pieces[i].flags, '#') ||
			  (pieces[i].want == FMT_WANT_STR && t->kind != TY_STR)))
			ERR(s, literal_loc(s, f->loc, pieces[i].off, (int)pieces[i].len),
			    E_FORMAT,
			    "a pinned iterator's printf() takes %%d %%i %%u %%o %%x %%X %%c %%p and %%s of strings, with flags - + 0 and space and a width, no precision (the kernel's bpf_seq_printf() formats it)");
	}
	if (sema_pinned(s) && n->nargs - 1 > 12) {
		ERR(s, n->args[13]->loc, E_LIMIT,
		    "a pinned iterator's printf() takes at most 12 values (bpf_seq_printf())");
		return &ty_void;
	}
	if (k < n->nargs) {
		ERR(s, n->args[k]->loc, E_FORMAT,
		    "%d argument%s more than the format's conversions",
		    n->nargs - k, n->nargs - k == 1 ? "" : "s");
		return &ty_void;
	}
	return printf_event(s, n, kind);
}


/* D's name for the type of argument A in a prototype message. */
static const char *arg_type(const struct node *a)
{
	if (a->kind == N_MAP && a->name && a->name[0] == '@')
		return "aggregation";
	return sema_d_type_name(a->ty);
}

/* The prototype a value of conversion P must fit, and whether T does. */
static const char *proto(const struct fmt_piece *p, const struct type *t,
			 bool *ok)
{
	switch (p->conv) {
	case 's':
	case 'S':
		*ok = t->kind == TY_STR || t->kind == TY_ARRAY;
		return "char [] or string (or use stringof)";
	case 'p':
	case 'a':
	case 'A':
		*ok = is_int(t) || t->kind == TY_PTR;
		return "pointer or integer";
	case 'Y':
	case 'T':
		*ok = is_int(t);
		return "int64_t";
	case 'k':
		*ok = t->kind == TY_KSTACK;
		return "stack";
	case 'e':
	case 'E':
	case 'f':
	case 'g':
	case 'G':
		*ok = false;	/* D on Linux has no floating-point values */
		return "float, double, or long double";
	default:
		*ok = is_int(t) || t->kind == TY_PTR;
		return "char, short, int, long, or long long";
	}
}

/* Key I of map M. */
static const struct type *key_type(const struct mapinfo *m, int i)
{
	return m->nkeys > 1 ? m->key->elem[i] : m->key;
}

/* Whether a value of type T surely does not fit conversion P (the
 * kinds sonde's own types stand for, symbols and addresses, pass). */
static bool misfit(const struct fmt_piece *p, const struct type *t)
{
	if ((t->kind == TY_KSTACK) != (p->conv == 'k'))
		return true;
	if (p->conv == 'k')
		return false;
	if (p->want == FMT_WANT_INT)
		return t->kind == TY_STR;
	return is_int(t) || t->kind == TY_PTR;
}

static const char *d_name(const struct type *t)
{
	return t->kind == TY_KSTACK ? "stack" : sema_d_type_name(t);
}

/* The values a D format's conversions take: printf()'s arguments
 * after the format, or printa()'s keys (its %@ the aggregation's
 * value). */
struct fmt_vals {
	const char *fn;			/* "printf", "printa", ... */
	int n;				/* values */
	struct node **args;		/* printf: the values */
	const struct mapinfo *m;	/* printa: the aggregation */
};

static const struct type *val_type(const struct fmt_vals *v, int i)
{
	return v->args ? v->args[i]->ty : key_type(v->m, i);
}

static const char *val_name(const struct fmt_vals *v, int i)
{
	return v->args ? arg_type(v->args[i]) : d_name(key_type(v->m, i));
}

static struct loc val_loc(const struct fmt_vals *v, struct node *n, int i)
{
	return v->args ? v->args[i]->loc : n->loc;
}

/* Does value I fit conversion P?  printf()'s arguments are checked by
 * their prototypes (an aggregation fits none), printa()'s keys only
 * where a mismatch is sure (sonde's own kinds stand for symbols and
 * addresses). */
static bool val_fits(const struct fmt_vals *v, int i,
		     const struct fmt_piece *p)
{
	bool ok;

	if (!v->args)
		return !misfit(p, key_type(v->m, i));
	proto(p, v->args[i]->ty, &ok);
	return ok && !(v->args[i]->kind == N_MAP && v->args[i]->name &&
		       v->args[i]->name[0] == '@');
}

/* Check the conversions of PIECES against the values V, as dtrace's
 * dt_printf_validate() does: '*' and ".*" each take an int value, a
 * conversion the next value, %@ printa()'s aggregation value.  Returns
 * the values taken, or -1 after reporting. */
static int check_conversions(struct sema *s, struct node *n,
			     const struct fmt_piece *pieces, int np,
			     const struct fmt_vals *v)
{
	int conv = 0, k = 0;

	for (int i = 0; i < np; i++) {
		const struct fmt_piece *p = &pieces[i];
		const struct type *t;
		bool ok;

		if (p->want == FMT_WANT_NONE && p->conv != '%')
			continue;
		conv++;
		if (p->want == FMT_WANT_NONE)
			continue;
		for (int bit = FMT_DYN_WIDTH; bit <= FMT_DYN_PREC; bit <<= 1) {
			const char *star = bit == FMT_DYN_PREC ? ".*" : "*";

			if (!(p->dyn & bit))
				continue;
			if (k >= v->n) {
				DERR(s, n->loc, E_FORMAT, "D_PRINTF_DYN_PROTO",
				     "%s( ) prototype mismatch: conversion #%d (%%%s) is missing a corresponding \"%s\" argument",
				     v->fn, conv, p->name, star);
				return -1;
			}
			t = val_type(v, k++);
			if (!is_err(t) && !is_int(t)) {
				DERR(s, val_loc(v, n, k - 1), E_FORMAT, "D_PRINTF_DYN_TYPE",
				     "%s( ) argument #%d is incompatible with conversion #%d prototype:\n"
				     "\tconversion: %% %s %s\n\t prototype: int\n\t  argument: %s",
				     v->fn, k + 1, conv, star, p->name, val_name(v, k - 1));
				return -1;
			}
		}
		if (p->agg) {	/* printa's value: unsigned for count() */
			t = v->m->agg == AGG_COUNT ? &ty_u64 : &ty_s64;
			if (!misfit(p, t))
				continue;
			DERR(s, n->loc, E_FORMAT, "D_PRINTF_ARG_TYPE",
			     "%s( ) aggregating action is incompatible with conversion #%d prototype:\n"
			     "\tconversion: %%%s\n\t prototype: %s\n\t  argument: %s",
			     v->fn, conv, p->name, proto(p, t, &ok),
			     t == &ty_u64 ? "uint64_t" : "int64_t");
			return -1;
		}
		if (k >= v->n) {
			DERR(s, n->loc, E_FORMAT, "D_PRINTF_ARG_PROTO",
			     "%s( ) prototype mismatch: conversion #%d (%%%s) is missing a corresponding value argument",
			     v->fn, conv, p->name);
			return -1;
		}
		t = val_type(v, k++);
		if (is_err(t) || val_fits(v, k - 1, p))
			continue;
		DERR(s, val_loc(v, n, k - 1), E_FORMAT, "D_PRINTF_ARG_TYPE",
		     "%s( ) argument #%d is incompatible with conversion #%d prototype:\n"
		     "\tconversion: %%%s\n\t prototype: %s\n\t  argument: %s",
		     v->fn, k + 1, conv, p->name, proto(p, t, &ok),
		     val_name(v, k - 1));
		return -1;
	}
	return k;
}

/* A call that is an action, which has no value: printf("%d", exit(0))
 * is D_PRINTF_ARG_TYPE, and DTrace does not check the inner call. */
static bool is_action(const struct node *a)
{
	static const char *const acts[] = {
		"printf", "printa", "trace", "tracemem", "exit", "clear",
		"trunc", "normalize", "denormalize", "commit", "discard",
		"raise", "system", "chill", "breakpoint", "panic", "stop",
		"setopt", "speculate", "freopen",
	};

	if (a->kind != N_CALL)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(acts); i++)
		if (!strcmp(a->name, acts[i]))
			return true;
	return false;
}

struct type *sema_d_printf(struct sema *s, struct node *n, enum ev_kind kind)
{
	struct node *f = n->args[0];
	struct fmt_piece pieces[128];
	const char *tag = "D_SYNTAX";
	char msg[160];
	size_t eoff;
	struct fmt_vals v = { n->name, n->nargs - 1, n->args + 1, NULL };
	int np, k;

	for (int i = 1; i < n->nargs; i++) {
		if (is_action(n->args[i]))
			n->args[i]->ty = &ty_void;
		else
			sema_expr(s, n->args[i]);
	}
	if (!sema_literal(s, f)) {
		struct type *t = sema_expr(s, f);

		if (is_err(t))
			return &ty_void;
		DERR(s, f->loc, E_FORMAT,
		     t->kind == TY_STR ? "D_PRINTF_ARG_FMT" : "D_PROTO_ARG",
		     "%s( ) argument #1 is incompatible with prototype:\n"
		     "\tprototype: string%s\n\t argument: %s", n->name,
		     t->kind == TY_STR ? " constant" : "", arg_type(f));
		return &ty_void;
	}
	if (!f->len && strcmp(n->name, "freopen")) {
		DERR(s, f->loc, E_FORMAT, "D_PRINTF_FMT_EMPTY",
		     "%s( ) format string is empty", n->name);
		return &ty_void;
	}
	np = fmt_parse_d(f->name, f->len, pieces, (int)ARRAY_SIZE(pieces), 0,
			 &eoff, msg, sizeof(msg), &tag);
	if (np < 0) {
		DERR(s, f->loc, E_FORMAT, tag, "%s", msg);
		return &ty_void;
	}
	if (np > (int)ARRAY_SIZE(pieces)) {
		ERR(s, f->loc, E_LIMIT, "format has more than %d pieces",
		    (int)ARRAY_SIZE(pieces));
		return &ty_void;
	}
	k = check_conversions(s, n, pieces, np, &v);
	if (k < 0)
		return &ty_void;
	k++;	/* past the format */
	if (k < n->nargs) {
		DERR(s, n->args[k]->loc, E_FORMAT, "D_PRINTF_ARG_EXTRA",
		     "%s( ) prototype mismatch: only %d arguments required by this format string",
		     n->name, k - 1);
		return &ty_void;
	}
	return printf_event(s, n, kind);
}

/* printa(fmt, @a): the conversions take @a's keys in turn (a '*'
 * width or precision one too), %@ its value, as dtrace checks them;
 * keys left over are not printed. */
bool sema_d_printa_format(struct sema *s, struct node *n,
			  const struct mapinfo *m)
{
	struct fmt_piece pieces[128];
	const char *tag, *fmt = n->tyname;
	char msg[256];
	struct fmt_vals v = { "printa", m->nkeys, NULL, m };
	int np;
	size_t eoff;

	np = fmt_parse_d(fmt, strlen(fmt), pieces, (int)ARRAY_SIZE(pieces), 1,
			 &eoff, msg, sizeof(msg), &tag);
	if (np < 0) {
		DERR(s, n->loc, E_FORMAT, tag, "%s", msg);
		return true;
	}
	if (np > (int)ARRAY_SIZE(pieces) || m->nkeys < 0 || (m->nkeys && !m->key))
		return false;
	return check_conversions(s, n, pieces, np, &v) < 0;
}
