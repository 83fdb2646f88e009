/* sema_call26.c - the checks of the functions bpftrace added after 0.17
 * (stdlib.md): the string helpers strlen, strcap, strstr, memcmp and
 * default_str_length, socket_cookie, percpu_kaddr, kfunc_exist,
 * kfunc_allowed, write_user, getopt (named program parameters), find,
 * len, and tseries()'s arguments.  Part of sema (sema.c); the checkers
 * are named by funcs.def, as sema_call.c's are. */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/btf.h"
#include "catalog/ksyms.h"
#include "lang/lex.h"

/* A string-like value: a string (or char[N]), an int8[N] array, or a
 * pointer to 1-byte integers or a uint64 address (read as a string at
 * run time). */
enum strlike { SL_NONE, SL_STR, SL_ARRAY, SL_PTR };

static enum strlike strlike(const struct type *t)
{
	if (t->kind == TY_STR)
		return SL_STR;
	if (t->kind == TY_ARRAY && t->of && t->of->kind == TY_INT &&
	    t->of->size == 1)
		return SL_ARRAY;
	if (t->kind == TY_PTR && t->pointee && t->pointee->kind == TY_INT &&
	    t->pointee->size == 1)
		return SL_PTR;
	/* an address: a tracepoint's "const char *" field, as in str() */
	if (t->kind == TY_INT && t->size == 8 && !t->is_signed)
		return SL_PTR;
	return SL_NONE;
}

/* Argument I of N checked as string-like; SL_NONE after an error. */
static enum strlike strlike_arg(struct sema *s, struct node *n, int i)
{
	struct node *a = n->args[i];
	struct type *t = sema_expr(s, a);
	enum strlike k;

	if (is_err(t))
		return SL_NONE;
	k = strlike(t);
	if (s->c->lang_d && (k == SL_NONE || k == SL_PTR)) {
		sema_d_proto_arg(s, n, i, "char *");	/* D: no address */
		return SL_NONE;
	}
	if (k == SL_NONE)
		ERR(s, a->loc, E_TYPE,
		    "%s() takes a string, a char array or a char pointer, not %s",
		    n->name, type_name(t));
	return k;
}

/* strlen(s): the bytes before the first NUL, a uint64; of a literal
 * known now.  n->ival keeps the argument's kind for cg. */
struct type *call_strlen(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	enum strlike k = strlike_arg(s, n, 0);

	if (k == SL_NONE)
		return set(n, &ty_error);
	n->ival = k;
	if (a->kind == N_STR) {
		n->is_const = 1;
		n->cval = (int64_t)strnlen(a->name, a->len);
	}
	return set(n, &ty_u64);
}

/* strcap(s): a string's or an array's capacity (its size, the NUL's
 * byte included), known now; a pointer's string length at run time. */
struct type *call_strcap(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	enum strlike k = strlike_arg(s, n, 0);

	if (k == SL_NONE)
		return set(n, &ty_error);
	n->ival = k;
	if (k != SL_PTR) {
		n->is_const = 1;
		n->cval = k == SL_STR ? a->ty->size : a->ty->nelem;
	}
	return set(n, &ty_s64);
}

/* strstr(haystack, needle): the index of the needle's first
 * occurrence, -1 if none, 0 for an empty needle; an int64.  Two
 * literals are searched now. */
struct type *call_strstr(struct sema *s, struct node *n)
{
	bool ok = true;

	for (int i = 0; i < 2; i++) {
		struct type *t = sema_expr(s, n->args[i]);

		if (is_err(t)) {
			ok = false;
		} else if (t->kind != TY_STR) {
			ERR(s, n->args[i]->loc, E_TYPE,
			    "strstr() looks for a string in a string, not %s",
			    type_name(t));
			ok = false;
		}
	}
	if (!ok)
		return set(n, &ty_error);
	if (n->args[0]->kind == N_STR && n->args[1]->kind == N_STR) {
		const char *h = n->args[0]->name;
		const char *p = strstr(h, n->args[1]->name);

		n->is_const = 1;
		n->cval = p ? (int64_t)(p - h) : -1;
	} else if (n->args[1]->kind == N_STR && !n->args[1]->name[0]) {
		n->is_const = 1;
		n->cval = 0;
	}
	return set(n, &ty_s64);
}

/* Can memcmp() compare T's bytes: a value kept in BPF memory. */
static bool has_bytes(const struct type *t)
{
	switch (t->kind) {
	case TY_INT: case TY_STR: case TY_TUPLE: case TY_ARRAY: case TY_PTR:
	case TY_BUF: case TY_MAC: case TY_INET: case TY_STRUCT:
		return true;
	default:
		return false;
	}
}

/* memcmp(left, right, count): the first COUNT bytes of two values
 * compared as unsigned bytes: 0 when equal, else the difference of
 * the first two that differ; an int64.  A constant COUNT must fit
 * both values; another is cut to the smaller at run time. */
struct type *call_memcmp(struct sema *s, struct node *n)
{
	struct type *t[2], *ct;
	bool ok = true;

	for (int i = 0; i < 2; i++) {
		t[i] = sema_expr(s, n->args[i]);
		if (is_err(t[i])) {
			ok = false;
		} else if (!has_bytes(t[i])) {
			ERR(s, n->args[i]->loc, E_TYPE,
			    "memcmp() compares values held in memory, not %s",
			    type_name(t[i]));
			ok = false;
		}
	}
	ct = sema_expr(s, n->args[2]);
	if (!is_err(ct) && !is_int(ct)) {
		ERR(s, n->args[2]->loc, E_TYPE,
		    "memcmp() count must be an integer, not %s", type_name(ct));
		return set(n, &ty_error);
	}
	if (!ok || is_err(ct))
		return set(n, &ty_error);
	if (n->args[2]->is_const) {
		int64_t c = n->args[2]->cval;
		int lim = t[0]->size < t[1]->size ? t[0]->size : t[1]->size;

		if (c < 0 || c > lim) {
			ERR(s, n->args[2]->loc, E_ARGS,
			    "memcmp() count %lld is outside 0..%d, the size of the smaller value",
			    (long long)c, lim);
			return set(n, &ty_error);
		}
	}
	return set(n, &ty_s64);
}

/* socket_cookie(sk): bpf_get_socket_cookie of a struct sock pointer
 * (0 for NULL), a uint64. */
struct type *call_socket_cookie(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t = sema_expr(s, a);

	if (is_err(t))
		return set(n, &ty_error);
	if (t->kind != TY_PTR || !t->pointee || !t->pointee->sname ||
	    strcmp(t->pointee->sname, "struct sock")) {
		ERR(s, a->loc, E_TYPE,
		    "socket_cookie() takes a pointer to the kernel's struct sock, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	return set(n, &ty_u64);
}

/* percpu_kaddr("sym"[, cpu]): the address of per-CPU variable SYM on
 * CPU (the current one when omitted; NULL past the last CPU), a
 * uint64 pointer.  n->cval is the variable's BTF id, which the
 * per-CPU helpers take. */
struct type *call_percpu_kaddr(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *p;
	uint64_t addr;
	int id;

	if (n->nargs == 2) {
		struct type *t = sema_expr(s, n->args[1]);

		if (is_err(t))
			return set(n, &ty_error);
		if (!is_int(t)) {
			ERR(s, n->args[1]->loc, E_TYPE,
			    "percpu_kaddr() cpu must be an integer, not %s",
			    type_name(t));
			return set(n, &ty_error);
		}
	}
	if (!sema_literal(s, a)) {
		ERR(s, a->loc, E_ARGS,
		    "percpu_kaddr() takes a per-CPU kernel variable's name, as in percpu_kaddr(\"runqueues\")");
		return set(n, &ty_error);
	}
	id = btf_var_id(s->c, a->name);
	if (id < 0) {
		ERR(s, a->loc, E_ARGS,
		    "percpu_kaddr(): the kernel's BTF has no per-CPU variable '%s'",
		    a->name);
		return set(n, &ty_error);
	}
	/* the verifier finds the address in kallsyms, which lists data
	 * symbols only with CONFIG_KALLSYMS_ALL */
	if (ksyms_addr_of(NULL, a->name, &addr)) {
		ERR(s, a->loc, E_ARGS,
		    "percpu_kaddr(): /proc/kallsyms has no '%s' (the kernel lists variables only with CONFIG_KALLSYMS_ALL)",
		    a->name);
		return set(n, &ty_error);
	}
	n->cval = id;
	p = arena_alloc(&s->c->arena, sizeof(*p));
	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = &ty_u64;
	p->kernel = true;
	return set(n, p);
}

/* write_user(dst, src, len): bpf_probe_write_user of LEN bytes of
 * value SRC to user address DST, with --unsafe; 1 on success, else 0. */
struct type *call_write_user(struct sema *s, struct node *n)
{
	struct type *dt = sema_expr(s, n->args[0]);
	struct type *st = sema_expr(s, n->args[1]);
	int64_t len;

	if (is_err(dt) || is_err(st))
		return set(n, &ty_error);
	if (!is_int(dt)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "write_user() writes to a user address, not to %s",
		    type_name(dt));
		return set(n, &ty_error);
	}
	if (!has_bytes(st)) {
		ERR(s, n->args[1]->loc, E_TYPE,
		    "write_user() writes a value held in memory, not %s",
		    type_name(st));
		return set(n, &ty_error);
	}
	if (!sema_const_int(s, n->args[2], &len, "write_user() length"))
		return set(n, &ty_error);
	if (len < 1 || len > st->size) {
		ERR(s, n->args[2]->loc, E_ARGS,
		    "write_user() length %lld is outside 1..%d, the size of the value",
		    (long long)len, st->size);
		return set(n, &ty_error);
	}
	if (!s->c->unsafe)
		ERR(s, n->loc, E_UNSAFE,
		    "write_user() writes to the traced process's memory: allow it with --unsafe");
	return set(n, &ty_u64);
}

/* The named program parameter NAME (-- --NAME[=VALUE]), marked used;
 * NULL if the command line has none. */
static struct named_param *named(struct compiler *c, const char *name)
{
	for (int i = 0; i < c->nnamed; i++)
		if (!strcmp(c->named[i].name, name)) {
			c->named[i].used = true;
			return &c->named[i];
		}
	return NULL;
}

/* A boolean parameter's text: true and 1, false and 0; -1 otherwise. */
static int bool_text(const char *v)
{
	if (!strcasecmp(v, "true") || !strcmp(v, "1"))
		return 1;
	if (!strcasecmp(v, "false") || !strcmp(v, "0"))
		return 0;
	return -1;
}

/* N (a getopt() call) becomes the constant V, typed as a boolean would
 * be where the language has them, else as an integer. */
static struct type *const_int(struct node *n, int64_t v, struct type *t)
{
	n->is_const = 1;
	n->cval = v;
	return set(n, t);
}

/* getopt("name"[, default[, "description"]]): the named program
 * parameter --name given after "--", else the default, a constant of
 * the default's type: a string, an integer, or a boolean (without a
 * default: false, and true for a bare --name). */
struct type *call_getopt(struct sema *s, struct node *n)
{
	struct node *a = n->args[0], *d = n->nargs > 1 ? n->args[1] : NULL;
	struct named_param *np;
	bool is_bool = !d;
	struct type *dt = NULL;

	if (a->kind != N_STR) {
		ERR(s, a->loc, E_ARGS,
		    "getopt() takes the parameter's name as a string literal");
		return set(n, &ty_error);
	}
	if (n->nargs == 3 && n->args[2]->kind != N_STR) {
		ERR(s, n->args[2]->loc, E_ARGS,
		    "getopt()'s description must be a string literal");
		return set(n, &ty_error);
	}
	if (d && d->kind == N_BUILTIN &&
	    (!strcmp(d->name, "true") || !strcmp(d->name, "false")))
		is_bool = true;
	if (d) {
		dt = sema_expr(s, d);
		if (is_err(dt))
			return set(n, &ty_error);
		if (!(dt->kind == TY_STR && d->kind == N_STR) &&
		    !(is_int(dt) && d->is_const)) {
			ERR(s, d->loc, E_ARGS,
			    "getopt()'s default must be a literal string, integer or boolean, not %s",
			    type_name(dt));
			return set(n, &ty_error);
		}
	}
	np = named(s->c, a->name);
	if (is_bool) {
		int v = d ? d->cval != 0 : 0;

		if (np)
			v = np->value ? bool_text(np->value) : 1;
		if (v < 0) {
			ERR(s, n->loc, E_OPTION,
			    "getopt(\"%s\") is a boolean: --%s=%s is none of true, false, 1, 0",
			    a->name, a->name, np->value);
			return set(n, &ty_error);
		}
		return const_int(n, v, &ty_u8);
	}
	if (np && !np->value) {
		ERR(s, n->loc, E_OPTION,
		    "getopt(\"%s\") needs a value: --%s=VALUE", a->name, a->name);
		return set(n, &ty_error);
	}
	if (dt->kind == TY_STR) {
		const char *v = np ? np->value : d->name;
		size_t len = np ? strlen(v) : d->len;

		n->kind = N_STR;
		n->name = v;
		n->len = len;
		n->nargs = 0;
		n->args = NULL;
		return sema_expr(s, n);
	}
	if (np) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(np->value, &end, 0);
		/* as bpftrace, an integer option takes true and false */
		if ((!*np->value || *end) && bool_text(np->value) >= 0)
			return const_int(n, bool_text(np->value), &ty_s64);
		if (!*np->value || *end || errno) {
			ERR(s, n->loc, E_OPTION,
			    "getopt(\"%s\") is an integer: --%s=%s is not one",
			    a->name, a->name, np->value);
			return set(n, &ty_error);
		}
		return const_int(n, v, &ty_s64);
	}
	return const_int(n, d->cval, &ty_s64);
}

/* Every named program parameter must be some getopt()'s; 0, or -1
 * after reporting those that are not. */
int sema_named_unused(struct compiler *c)
{
	int bad = 0;

	for (int i = 0; i < c->nnamed; i++)
		if (!c->named[i].used) {
			diag_error(&c->diag, (struct loc){ 0 }, E_OPTION,
				   "unknown program option --%s: no getopt(\"%s\") reads it",
				   c->named[i].name, c->named[i].name);
			bad = -1;
		}
	return bad;
}

/* A tuple value (a variable, not a literal) as the key of a map of
 * several keys, @m[k1, k2]: its elements become the keys (the nodes
 * kept in n->extra, for the later passes). */
void sema_spread_key(struct sema *s, struct node *n, struct node *a)
{
	struct mapinfo *m = sema_map_get(s, a);
	struct node *k = a->args[0], **keys;
	struct type *t;

	if (a->nargs != 1 || k->kind == N_TUPLE || m->nkeys < 2)
		return;
	t = sema_expr(s, k);
	if (t->kind != TY_TUPLE || t->nelem != m->nkeys)
		return;
	keys = arena_alloc(&s->c->arena, sizeof(*keys) * (size_t)t->nelem);
	for (int i = 0; i < t->nelem; i++) {
		struct node *f = arena_alloc(&s->c->arena, sizeof(*f));

		f->kind = N_FIELD;
		f->op = T_DOT;
		f->loc = k->loc;
		f->a = k;
		f->ival = (uint64_t)i;
		f->name = arena_printf(&s->c->arena, "%d", i);
		keys[i] = f;
	}
	a->args = keys;
	a->nargs = t->nelem;
	n->extra = keys;
}

/* find(@m, key, $v): 1 when @m holds KEY, its value then copied into
 * $v (defined here, of the map's value type, as `$v = @m[key]` would
 * be); else 0 and $v unchanged.  Maps of plain values only: an
 * aggregation's value is merged across CPUs in user space. */
struct type *call_find(struct sema *s, struct node *n)
{
	struct node *a = n->args[0], *k = n->args[1], *vn = n->args[2];
	bool tuple = k->kind == N_TUPLE;
	bool moved = a->kind == N_MAP && a->nargs &&
		     (a->args == (tuple ? k->args : &n->args[1]) ||
		      a->args == n->extra);
	struct mapinfo *m;
	struct var *v;
	struct type *vt;

	if (a->kind != N_MAP || (a->nargs && !moved)) {
		ERR(s, a->loc, E_ARGS,
		    "find() takes a map without keys, as in find(@m, key, $v)");
		return set(n, &ty_error);
	}
	if (vn->kind != N_VAR) {
		ERR(s, vn->loc, E_ARGS,
		    "find() stores the value in a variable, as in find(@m, key, $v)");
		return set(n, &ty_error);
	}
	if (!moved) {
		a->args = tuple ? k->args : &n->args[1];
		a->nargs = tuple ? k->nargs : 1;
		sema_spread_key(s, n, a);
	}
	m = sema_map_keys(s, a);
	if (a->ty && is_err(a->ty))
		return set(n, &ty_error);
	a->ty = &ty_mapref;
	m->read = true;
	if (m->agg != AGG_NONE) {
		ERR(s, a->loc, E_TYPE,
		    "find() reads maps of plain values, and %s holds %s",
		    m->name, sema_agg_name(m->agg));
		return set(n, &ty_error);
	}
	vt = m->val ? m->val : (s->guess_int || s->report ? &ty_s64 : NULL);
	if (!vt)
		return set(n, &ty_u8);
	vt = sema_storage(s, vt);
	v = sema_var_find(s, vn->name);
	if (!v) {
		v = sema_var_new(s, vn, vt);
	} else if (is_int(v->ty) && is_int(vt)) {
		if (!ty_equal(v->ty, vt))
			v->ty = ty_int(8, v->ty->is_signed);
	} else {
		struct type *u = sema_unify(s, v->ty, vt);

		if (!u) {
			ERR(s, vn->loc, E_TYPE,
			    "%s holds %s (from %d:%d); find() cannot store %s's %s in it",
			    v->name, type_name(v->ty), v->first.line, v->first.col,
			    m->name, type_name(vt));
			return set(n, &ty_error);
		}
		v->ty = u;
	}
	v->defined = true;
	vn->var = v;
	vn->ty = v->ty;
	return set(n, &ty_u8);
}

/* len(@m): the number of @m's keys; len(kstack), len(ustack): the
 * stack's depth in frames; an int64. */
struct type *call_len(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t;

	if (a->kind == N_MAP && !a->nargs) {
		struct mapinfo *m = sema_map_get(s, a);

		m->read = true;
		a->ty = &ty_mapref;
		if (s->report && m->nkeys == 0) {
			ERR(s, a->loc, E_ARGS,
			    "len() counts the keys of a map, and %s has none", m->name);
			return set(n, &ty_error);
		}
		return set(n, &ty_s64);
	}
	t = sema_expr(s, a);
	if (is_err(t))
		return set(n, &ty_error);
	if (t->kind != TY_KSTACK ||
	    (a->kind != N_BUILTIN && a->kind != N_CALL)) {
		ERR(s, a->loc, E_TYPE,
		    "len() takes a map (len(@m)), kstack or ustack, not %s",
		    t->kind == TY_KSTACK ? "a stored stack" : type_name(t));
		return set(n, &ty_error);
	}
	return set(n, &ty_s64);
}

/* tseries(value, interval, count[, "agg"]): the interval, a positive
 * constant in nanoseconds (100ms), the number of intervals kept, 1 to
 * TS_MAX_INTERVALS, and how an interval's values merge ("avg", "max",
 * "min", "sum"; without: the last value).  The value itself is checked
 * as other aggregations' are. */
bool sema_tseries_args(struct sema *s, struct node *call, struct ts_args *ts)
{
	static const char *const modes[] = { "last", "sum", "avg", "min", "max" };
	int64_t n;

	ts->mode = TS_LAST;
	if (s->report && s->c->unstable_tseries == 1) {
		ERR(s, call->loc, E_CONFIG,
		    "tseries() is an unstable feature, disabled by config unstable_tseries = error");
		return false;
	}
	if (s->report && !s->c->unstable_tseries && !s->c->tseries_warned) {
		s->c->tseries_warned = true;
		diag_warn(&s->c->diag, call->loc,
			  "tseries() is an unstable feature: set config = { unstable_tseries = enable } to silence this warning");
	}
	if (!sema_const_int(s, call->args[1], &ts->interval, "tseries() interval") ||
	    !sema_const_int(s, call->args[2], &n, "tseries() number of intervals"))
		return false;
	if (ts->interval <= 0) {
		ERR(s, call->args[1]->loc, E_ARGS,
		    "tseries() interval must be positive (nanoseconds, as in 100ms)");
		return false;
	}
	if (n < 1 || n > TS_MAX_INTERVALS) {
		ERR(s, call->args[2]->loc, E_ARGS,
		    "tseries() keeps 1 to %d intervals, not %lld", TS_MAX_INTERVALS,
		    (long long)n);
		return false;
	}
	ts->n = (int)n;
	if (call->nargs == 4) {
		struct node *a = call->args[3];
		int k = 0;

		if (a->kind == N_STR)
			for (k = 1; k < 5 && strcmp(a->name, modes[k]); k++)
				;
		if (a->kind != N_STR || k == 5) {
			ERR(s, a->loc, E_ARGS,
			    "tseries() aggregation must be \"avg\", \"max\", \"min\" or \"sum\"");
			return false;
		}
		ts->mode = k;
	}
	return true;
}
