/* sema.c - names, types and maps of a parsed script.
 *
 * Three passes over the whole program: the first two only learn the
 * types of maps and variables (a map may be read in END before the probe
 * that writes it, a string variable may grow; the second pass takes a
 * map only ever assigned from itself, @x = @x + 1, as an integer), the
 * last checks every node against what they learnt, reports errors, and
 * records events (printf, print, time, exit, ...).  Sema reports many
 * errors before giving up; after it, every node has a type.
 */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"
#include "probe/probe.h"
#include "catalog/btf.h"
#include "sema/cdecl.h"
#include "catalog/tracefs.h"
#include "catalog/usdt.h"

#define LHIST_MAX_BUCKETS 1000

static const struct {
	const char *name;
	int ty;
} builtins[] = {
#define X(e, name, ty) { name, 0 },
#include "sema/builtins.def"
#undef X
};

const char *builtin_name(int b)
{
	return (unsigned)b < B_NBUILTINS ? builtins[b].name : "?";
}

bool sema_is_builtin(const char *name)
{
	for (int i = 0; i < B_NBUILTINS; i++)
		if (!strcmp(builtins[i].name, name))
			return true;
	return false;
}


static struct type *ret_type(struct sema *s);
static void stmt(struct sema *s, struct node *n);

/* Merge two types stored in the same place (a variable, a map key or
 * value): integers widen to 64 bits, strings to the longer, tuples
 * element-wise.  NULL if they cannot share storage. */
static struct type *unify(struct sema *s, struct type *old, struct type *new)
{
	if (!old || is_err(old))
		return new;
	if (is_err(new))
		return old;
	if (old->kind != new->kind)
		return NULL;
	switch (old->kind) {
	case TY_INT:
		return ty_int(8, old->is_signed);
	case TY_STR: case TY_BUF:
		return old->size >= new->size ? old : new;
	case TY_TSTAMP:
		return old;
	case TY_KSTACK:		/* ids of stacks of another depth, another map */
		return ty_equal(old, new) ? old : NULL;
	case TY_TUPLE: {
		struct type **e;
		bool same = true;

		if (old->nelem != new->nelem)
			return NULL;
		e = arena_alloc(&s->c->arena, sizeof(*e) * (size_t)old->nelem);
		for (int i = 0; i < old->nelem; i++) {
			e[i] = unify(s, old->elem[i], new->elem[i]);
			if (!e[i])
				return NULL;
			if (e[i] != old->elem[i])
				same = false;
		}
		return same ? old : ty_tuple(&s->c->arena, e, old->nelem);
	}
	default:
		return old;
	}
}

/* Storage form of a value type: integers are kept as 64-bit.  Strings
 * keep their size: unify() grows the storage to the longest value
 * stored, which the second pass sees. */
static struct type *storage(struct sema *s, struct type *t)
{
	switch (t->kind) {
	case TY_INT:
		return ty_int(8, t->is_signed);
	case TY_TUPLE: {
		struct type **e = arena_alloc(&s->c->arena,
					      sizeof(*e) * (size_t)t->nelem);

		for (int i = 0; i < t->nelem; i++)
			e[i] = storage(s, t->elem[i]);
		return ty_tuple(&s->c->arena, e, t->nelem);
	}
	default:
		return t;
	}
}

struct mapinfo *sema_map_get(struct sema *s, struct node *n)
{
	struct compiler *c = s->c;
	struct mapinfo *m = strmap_get(&s->map_names, n->name);

	if (m)
		return n->map = m;
	m = arena_alloc(&c->arena, sizeof(*m));
	m->name = n->name;
	m->id = c->nmaps;
	m->first = n->loc;
	m->nkeys = -1;
	m->fd = -1;
	/* doubling: a generated script may have thousands */
	if (!(c->nmaps & (c->nmaps - 1)))
		c->maps = xrealloc(c->maps, sizeof(*c->maps) *
				   (size_t)(c->nmaps ? 2 * c->nmaps : 1));
	c->maps[c->nmaps++] = m;
	strmap_put(&s->map_names, &c->arena, m->name, m);
	return n->map = m;
}

static bool key_kind(enum ty_kind k)
{
	return k == TY_INT || k == TY_STR || k == TY_TUPLE || k == TY_KSTACK ||
	       k == TY_KSYM || k == TY_USYM || k == TY_USERNAME ||
	       k == TY_INET || k == TY_MAC || k == TY_BUF;
}

/* Check the keys of @m[...] and merge them into the map's key type. */
struct mapinfo *sema_map_keys(struct sema *s, struct node *n)
{
	struct mapinfo *m = sema_map_get(s, n);
	struct type *kt = NULL, *u;

	n->ty = NULL;	/* set to ty_error below if the keys are wrong */

	if (n->nargs == 1) {
		kt = sema_expr(s, n->args[0]);
	} else if (n->nargs > 1) {
		struct type **e = arena_alloc(&s->c->arena,
					      sizeof(*e) * (size_t)n->nargs);

		for (int i = 0; i < n->nargs; i++)
			e[i] = sema_expr(s, n->args[i]);
		for (int i = 0; i < n->nargs; i++)
			if (is_err(e[i]))
				return m;
		kt = ty_tuple(&s->c->arena, e, n->nargs);
	}
	if (kt && is_err(kt))
		return m;
	if (kt && !key_kind(kt->kind)) {
		ERR(s, n->args[0]->loc, E_TYPE, "a %s cannot be a map key",
		    type_name(kt));
		return m;
	}
	if (kt && kt->kind == TY_TUPLE) {
		for (int i = 0; i < kt->nelem; i++) {
			if (!key_kind(kt->elem[i]->kind)) {
				ERR(s, n->args[i]->loc, E_TYPE,
				    "a %s cannot be part of a map key",
				    type_name(kt->elem[i]));
				return m;
			}
		}
	}
	if (m->nkeys < 0) {
		m->nkeys = n->nargs;
		m->key = kt ? storage(s, kt) : NULL;
		return m;
	}
	if (m->nkeys != n->nargs) {
		if (!n->nargs)
			ERR(s, n->loc, E_MAP,
			    "%s has keys (as used at %d:%d): write %s[...]",
			    m->name, m->first.line, m->first.col, m->name);
		else if (!m->nkeys)
			ERR(s, n->loc, E_MAP,
			    "%s has no keys (as used at %d:%d): write %s",
			    m->name, m->first.line, m->first.col, m->name);
		else
			ERR(s, n->loc, E_MAP,
			    "%s is used with %d keys here but %d at %d:%d",
			    m->name, n->nargs, m->nkeys, m->first.line,
			    m->first.col);
		n->ty = &ty_error;
		return m;
	}
	if (kt) {
		u = unify(s, m->key, storage(s, kt));
		if (!u)
			ERR(s, n->loc, E_MAP,
			    "%s has %s keys, not %s (first used at %d:%d)",
			    m->name, type_name(m->key), type_name(kt),
			    m->first.line, m->first.col);
		else
			m->key = u;
	}
	return m;
}

static const char *agg_name(enum agg_kind a)
{
	static const char *const names[] = {
		"a plain value", "count()", "sum()", "min()", "max()", "avg()",
		"stats()", "hist()", "lhist()",
	};
	return names[a];
}

static struct var *var_find(struct sema *s, const char *name)
{
	return strmap_get(&s->pi->var_names, name);
}

static struct var *var_new(struct sema *s, struct node *target,
			   struct type *ty)
{
	struct var *v = arena_alloc(&s->c->arena, sizeof(*v));

	v->name = target->name;
	v->first = target->loc;
	v->ty = ty;
	v->next = s->pi->vars;
	s->pi->vars = v;
	strmap_put(&s->pi->var_names, &s->c->arena, v->name, v);
	return v;
}

struct event_spec *sema_add_event(struct sema *s, struct node *n,
				    enum ev_kind kind)
{
	struct compiler *c = s->c;
	struct event_spec *e;

	if (c->nevents == c->events_cap) {
		c->events_cap = c->events_cap ? c->events_cap * 2 : 16;
		c->events = xrealloc(c->events, sizeof(*c->events) *
				     (size_t)c->events_cap);
	}
	e = &c->events[c->nevents];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->loc = n->loc;
	e->size = 8;
	n->cval = c->nevents++;
	return e;
}

/* Lay out the values of an event record after its 8-byte id. */
void sema_event_args(struct sema *s, struct event_spec *e,
		       struct node **args, int nargs)
{
	int off = 8;

	e->nargs = nargs;
	e->args = arena_alloc(&s->c->arena, sizeof(*e->args) *
			      (size_t)(nargs ? nargs : 1));
	for (int i = 0; i < nargs; i++) {
		struct type *t = args[i]->ty;

		if (t->kind == TY_INT)
			t = ty_int(8, t->is_signed);
		e->args[i].ty = t;
		e->args[i].off = off;
		if (t->kind == TY_TSTAMP)
			e->args[i].tfmt = t->tfmt;
		off += ty_slot_size(t);
	}
	e->size = off;
}

/* argK of usdt probe PS: an operand the note has and sonde can read. */
static bool usdt_arg_ok(struct sema *s, struct node *n,
			const struct probe_spec *ps, int k)
{
	const struct usdt_arg *a = &ps->uargs[k];

	if (k >= ps->nuargs) {
		if (ps->nuargs)
			ERR(s, n->loc, E_CONTEXT, "%s has %d argument%s (arg0..arg%d)",
			    ps->name, ps->nuargs, ps->nuargs == 1 ? "" : "s",
			    ps->nuargs - 1);
		else
			ERR(s, n->loc, E_CONTEXT, "%s has no arguments", ps->name);
		return false;
	}
	if (a->loc == USDT_BAD) {
		ERR(s, n->loc, E_CONTEXT, "%s: arg%d is '%.*s': %s", ps->name, k,
		    a->text_len, ps->usdt_args + a->text_off, a->err);
		return false;
	}
	return true;
}

static struct type *check_builtin(struct sema *s, struct node *n)
{
	static const char *const later[] = {
		"args",
		"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
		"arg8", "arg9", "sarg0", "sarg1", "sarg2",
	};

	for (int i = 0; i < B_NBUILTINS; i++) {
		if (strcmp(builtins[i].name, n->name))
			continue;
		n->builtin = i;
		switch (i) {
		case B_COMM:
			return set(n, str_type(s, 16));
		case B_PROBE:
			s->pi->per_site = true;
			return set(n, str_type(s, s->pi->name_max));
		case B_CPID:
			if (!s->c->has_command) {
				ERR(s, n->loc, E_CONTEXT,
				    "cpid needs a command to run: sonde -c 'CMD'");
				return set(n, &ty_error);
			}
			return set(n, &ty_u32);
		case B_KSTACK: case B_USTACK:
			return sema_stack(s, n, i == B_USTACK);
		case B_RETVAL:
			if (!sema_all_probes(s, n, PF_RETVAL))
				return set(n, &ty_error);
			return set(n, ret_type(s));
		case B_FUNC: {
			int len = 1;

			s->pi->per_site = true;
			if (!sema_all_probes(s, n, PF_FUNC))
				return set(n, &ty_error);
			for (int k = 0; k < s->pi->nspecs; k++) {
				int l = (int)strlen(s->pi->specs[k].func) + 1;

				if (l > len)
					len = l;
			}
			return set(n, str_type(s, len));
		}
		case B_PID: case B_TID: case B_UID: case B_GID: case B_CPU:
		case B_RAND: case B_NUMAID:
			return set(n, &ty_u32);
		case B_USERNAME:
			return set(n, &ty_username);
		default:
			return set(n, &ty_u64);
		}
	}
	if (!strcmp(n->name, "ctx")) {
		struct type *ct = NULL;

		for (int i = 0; i < s->pi->nspecs; i++) {
			struct probe_spec *ps = &s->pi->specs[i];

			if (ps->ops->ctx != CTX_ITER) {
				ERR(s, n->loc, E_CONTEXT,
				    "'ctx' is not available in %s probes", ps->name);
				return set(n, &ty_error);
			}
			if (!ct) {
				struct type *st = btf_type_by_name(s->c, ps->ctx_struct);

				if (!st) {
					ERR(s, n->loc, E_TYPE, "%s is not in the kernel's BTF",
					    ps->ctx_struct);
					return set(n, &ty_error);
				}
				ct = arena_alloc(&s->c->arena, sizeof(*ct));
				ct->kind = TY_PTR;
				ct->size = 8;
				ct->pointee = st;
			}
		}
		n->builtin = B_CTX;
		return set(n, ct ? ct : &ty_error);
	}
	if (!strncmp(n->name, "arg", 3) && n->name[3] >= '0' && n->name[3] <= '9') {
		char *end;
		long k = strtol(n->name + 3, &end, 10);

		if (!*end && k < 32) {
			bool all_signed = s->pi->nspecs > 0;

			for (int i = 0; i < s->pi->nspecs; i++) {
				struct probe_spec *ps = &s->pi->specs[i];
				const char **names;
				struct type **types;
				int id, nargs;

				if (ps->ops->ctx == CTX_USDT) {
					if (!usdt_arg_ok(s, n, ps, (int)k))
						return set(n, &ty_error);
					all_signed &= ps->uargs[k].is_signed;
					continue;
				}
				all_signed = false;
				if (ps->ops->ctx == CTX_REGS &&
				    !probe_has(ps, PF_RETVAL)) {
					if (k > 5) {
						ERR(s, n->loc, E_CONTEXT,
						    "%s: only arg0..arg5 are in registers",
						    ps->name);
						return set(n, &ty_error);
					}
					continue;
				}
				if (ps->ops->ctx != CTX_RAWTP) {
					ERR(s, n->loc, E_CONTEXT,
					    "'%s' is not available in %s probes",
					    n->name, ps->name);
					return set(n, &ty_error);
				}
				/* BTF knows how many arguments there are;
				 * the kernel takes at most 12 */
				nargs = btf_tp_args(s->c, ps->target, &names, &types, &id);
				if (nargs < 0)
					nargs = 12;
				if (k >= nargs) {
					ERR(s, n->loc, E_CONTEXT,
					    "%s has %d argument%s (arg0..arg%d)", ps->name,
					    nargs, nargs == 1 ? "" : "s", nargs - 1);
					return set(n, &ty_error);
				}
			}
			n->builtin = B_ARG;
			n->ival = (uint64_t)k;
			/* a usdt operand's sign is known: bpftrace 0.17
			 * would make -1 an unsigned 2^64-1 */
			return set(n, all_signed ? &ty_s64 : &ty_u64);
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(later); i++) {
		if (!strcmp(later[i], n->name)) {
			ERR(s, n->loc, E_CONTEXT,
			    "'%s' is not available in %s probes", n->name,
			    s->pi->nspecs ? s->pi->specs[0].name : "these");
			return set(n, &ty_error);
		}
	}
	{
		int64_t v;

		if (cdecl_enum(s->c, n->name, &v)) {
			n->is_const = 1;
			n->cval = v;
			return set(n, &ty_s64);
		}
	}
	if (sema_func_lookup(n->name) >= 0)
		ERR(s, n->loc, E_IDENT, "'%s' is a function: call it as %s()",
		    n->name, n->name);
	else
		ERR(s, n->loc, E_IDENT, "unknown identifier '%s'", n->name);
	return set(n, &ty_error);
}

/* A pointer field of a tracepoint: a pointer to a struct or union the
 * kernel's BTF knows can be followed with ->; the pointers of the
 * syscalls tracepoints are the system call's own arguments, in the
 * calling process's memory.  Without BTF, or to other types, the field
 * is an unsigned 64-bit integer. */
static struct type *tp_ptr_type(struct sema *s, const struct tp_format *tp,
				const struct tp_field *f)
{
	struct type *target, *p;

	if (strncmp(f->ctype, "struct ", 7) && strncmp(f->ctype, "union ", 6))
		return &ty_u64;
	target = cdecl_type_by_name(s->c, f->ctype);
	if (!target || target->kind != TY_STRUCT)
		return &ty_u64;
	p = arena_alloc(&s->c->arena, sizeof(*p));
	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = target;
	p->user = tp->category && !strcmp(tp->category, "syscalls");
	return p;
}

/* retval: a fexit's BTF return type when every probe of the block
 * agrees on it, else a 64-bit integer (the register). */
static struct type *ret_type(struct sema *s)
{
	struct type *t = NULL;

	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		const char **names;
		struct type **types, *ret = NULL;
		int id;

		if (ps->ops->ctx != CTX_FUNC ||
		    btf_func_args(s->c, ps->func, &names, &types, &ret, &id) < 0 ||
		    !ret || (ret->kind != TY_INT && ret->kind != TY_PTR))
			return &ty_u64;
		if (t && !ty_equal(t, ret))
			return &ty_u64;
		t = ret;
	}
	return t ? t : &ty_u64;
}

/* args.NAME of fentry/fexit: the function's BTF-typed parameter; its
 * index goes to cg through the name. */
static struct type *fentry_arg(struct sema *s, struct node *n,
			       struct probe_spec *ps)
{
	const char **names;
	struct type **types, *ret;
	int id, k = btf_func_args(s->c, ps->func, &names, &types, &ret, &id);

	for (int i = 0; i < k; i++) {
		if (strcmp(names[i], n->name))
			continue;
		if (!types[i] || types[i]->kind == TY_VOID ||
		    types[i]->kind == TY_STRUCT || types[i]->kind == TY_STR) {
			ERR(s, n->loc, E_TYPE,
			    "argument '%s' of %s has a type sonde cannot read yet",
			    n->name, ps->func);
			return NULL;
		}
		return types[i];
	}
	ERR(s, n->loc, E_TYPE, "function %s has no argument '%s'", ps->func,
	    n->name);
	return NULL;
}

/* args.NAME of a raw tracepoint: its BTF-typed argument; the probe
 * then loads as a tp_btf program.  NAME's index goes in foff. */
static struct type *rawtp_arg(struct sema *s, struct node *n,
			      struct probe_spec *ps)
{
	const char **names;
	struct type **types;
	int id, k = btf_tp_args(s->c, ps->target, &names, &types, &id);

	if (k < 0) {
		ERR(s, n->a->loc, E_CONTEXT,
		    "raw tracepoint %s has no BTF description: use arg0..argN",
		    ps->target);
		return NULL;
	}
	for (int i = 0; i < k; i++) {
		if (strcmp(names[i], n->name))
			continue;
		if (!types[i] || types[i]->kind == TY_VOID ||
		    types[i]->kind == TY_STRUCT || types[i]->kind == TY_STR) {
			ERR(s, n->loc, E_TYPE,
			    "argument '%s' of %s has a type sonde cannot read yet",
			    n->name, ps->target);
			return NULL;
		}
		ps->tp_btf = true;
		ps->attach_btf_id = id;
		n->foff = i;
		return types[i];
	}
	ERR(s, n->loc, E_TYPE, "raw tracepoint %s has no argument '%s'",
	    ps->target, n->name);
	return NULL;
}

/* args.NAME of a tracepoint: the field must exist, with the same type,
 * in every tracepoint of the block (cg reads each one's own offset). */
static struct type *args_field(struct sema *s, struct node *n)
{
	struct type *t = NULL;

	n->a->ty = &ty_void;
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		const struct tp_field *f = NULL;
		struct type *ft;

		if (ps->ops->ctx == CTX_RAWTP || ps->ops->ctx == CTX_FUNC) {
			ft = ps->ops->ctx == CTX_RAWTP ? rawtp_arg(s, n, ps)
						  : fentry_arg(s, n, ps);
			if (!ft)
				return set(n, &ty_error);
			if (t && !ty_equal(t, ft)) {
				ERR(s, n->loc, E_TYPE,
				    "argument '%s' has different types in the probes of this block",
				    n->name);
				return set(n, &ty_error);
			}
			t = ft;
			continue;
		}

		if (ps->ops->ctx != CTX_RECORD || !ps->tp) {
			ERR(s, n->a->loc, E_CONTEXT,
			    "'args' is not available in %s probes", ps->name);
			return set(n, &ty_error);
		}
		for (int k = 0; k < ps->tp->nfields; k++)
			if (!strcmp(ps->tp->fields[k].name, n->name))
				f = &ps->tp->fields[k];
		if (!f) {
			ERR(s, n->loc, E_TYPE, "tracepoint %s has no field '%s'",
			    ps->target, n->name);
			return set(n, &ty_error);
		}
		if (f->kind == TPF_ARRAY) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' of %s is an array of %s, which sonde cannot read yet",
			    n->name, ps->target, f->ctype);
			return set(n, &ty_error);
		}
		ft = f->kind == TPF_DATALOC ? str_type(s, s->c->strlen_)
		   : f->kind == TPF_PTR ? tp_ptr_type(s, ps->tp, f)
					: tp_field_type(&s->c->arena, f);
		if (!t) {
			t = ft;
		} else if (t->kind == TY_PTR && ft->kind == TY_PTR &&
			   (t->user != ft->user ||
			    strcmp(t->pointee ? t->pointee->sname : "void",
				   ft->pointee ? ft->pointee->sname : "void"))) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' points to %s in one tracepoint of this block and to %s in %s",
			    n->name, t->pointee ? t->pointee->sname : "void",
			    ft->pointee ? ft->pointee->sname : "void", ps->target);
			return set(n, &ty_error);
		} else if (t->kind == TY_INT && ft->kind == TY_INT) {
			/* write's fd is unsigned int, writev's unsigned long:
			 * both read into their common 64-bit type */
			if (!ty_equal(t, ft))
				t = ty_int(8, t->is_signed && ft->is_signed);
		} else if (t->kind == TY_STR && ft->kind == TY_STR) {
			if (ft->size > t->size)
				t = ft;
		} else if (!ty_equal(t, ft)) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' is %s in one tracepoint of this block and %s in %s",
			    n->name, type_name(t), type_name(ft), ps->target);
			return set(n, &ty_error);
		}
	}
	if (!t) {
		ERR(s, n->loc, E_CONTEXT, "'args' needs a tracepoint probe");
		return set(n, &ty_error);
	}
	n->builtin = B_ARGS_FIELD;
	return set(n, t);
}

/* p->member and s.member of kernel structs, typed from BTF. */
static struct type *btf_field(struct sema *s, struct node *n, struct type *t)
{
	struct type *st = t->kind == TY_PTR ? t->pointee : t;
	struct btf_member_info mi;
	int rc;

	if (!st || st->kind != TY_STRUCT) {
		ERR(s, n->loc, E_TYPE, "%s is not a pointer to a struct: it has no field '%s'",
		    type_name(t), n->name);
		return set(n, &ty_error);
	}
	rc = btf_member(s->c, st, n->name, &mi);
	if (rc == -ENOENT) {
		ERR(s, n->loc, E_TYPE, "%s has no member '%s'", st->sname, n->name);
		return set(n, &ty_error);
	}
	if (rc) {
		ERR(s, n->loc, E_TYPE,
		    "member '%s' of %s has a type sonde cannot read yet",
		    n->name, st->sname);
		return set(n, &ty_error);
	}
	if (mi.ty->kind == TY_VOID) {
		ERR(s, n->loc, E_TYPE, "member '%s' of %s has no value", n->name,
		    st->sname);
		return set(n, &ty_error);
	}
	if (n->a->kind == N_BUILTIN && n->a->builtin == B_CTX &&
	    mi.ty->kind == TY_STRUCT) {
		ERR(s, n->loc, E_TYPE, "ctx->%s is a struct inside the context; read its members through a pointer",
		    n->name);
		return set(n, &ty_error);
	}
	if (t->user && (mi.ty->kind == TY_PTR || mi.ty->kind == TY_STRUCT) &&
	    !mi.ty->user) {
		/* what a user-memory struct holds or points to is in
		 * user memory too */
		struct type *u = arena_alloc(&s->c->arena, sizeof(*u));

		*u = *mi.ty;
		u->user = true;
		mi.ty = u;
	}
	n->builtin = B_BTF_FIELD;
	n->foff = mi.offset;
	n->fshift = mi.bit_shift;
	n->fbits = mi.bit_size;
	return set(n, mi.ty);
}

/* *p: the integer p points to, read from memory (kernel memory, or the
 * process's in user-space probes and for the pointers of syscall
 * tracepoints: cg picks the helper per probe).  A pointer to a struct
 * gives the struct, whose members '.' reads; a plain integer is taken
 * for the address of a uint64, as bpftrace does (*kaddr("avenrun")). */
static struct type *deref(struct sema *s, struct node *n, struct type *t)
{
	struct type *to;

	if (t->kind == TY_PTR && t->pointee &&
	    (t->pointee->kind == TY_INT || t->pointee->kind == TY_STRUCT)) {
		to = t->pointee;
		if (t->user && !to->user) {
			struct type *u = arena_alloc(&s->c->arena, sizeof(*u));

			*u = *to;
			u->user = true;
			to = u;
		}
		return set(n, to);
	}
	if (t->kind == TY_PTR || t->kind == TY_INT)
		return set(n, &ty_u64);
	ERR(s, n->loc, E_TYPE, "operator '*' cannot take %s: it needs a pointer or an address",
	    type_name(t));
	return set(n, &ty_error);
}

static bool positional_int(const char *p, int64_t *v)
{
	char *end;

	if (!*p)
		return false;
	errno = 0;
	*v = strtoll(p, &end, 0);
	return !errno && !*end;
}

static struct type *binop(struct sema *s, struct node *n)
{
	struct type *a = sema_expr(s, n->a), *b = sema_expr(s, n->b), *t;

	if (is_err(a) || is_err(b))
		return set(n, &ty_error);
	if (n->op == T_EQ || n->op == T_NE) {
		if (a->kind == TY_STR && b->kind == TY_STR)
			return set(n, &ty_s64);
		/* the same stack (same id), the same address, the same
		 * user */
		if ((a->kind == TY_KSTACK || a->kind == TY_KSYM ||
		     a->kind == TY_USERNAME) && ty_equal(a, b))
			return set(n, &ty_s64);
	}
	if (!is_int(a) || !is_int(b)) {
		ERR(s, n->loc, E_TYPE, "operator '%s' cannot take %s and %s",
		    tok_spelling(n->op), type_name(a), type_name(b));
		return set(n, &ty_error);
	}
	switch (n->op) {
	case T_EQ: case T_NE: case T_LT: case T_GT: case T_LE: case T_GE:
		t = &ty_s64;
		break;
	case T_SHL: case T_SHR:
		t = ty_promote(a);
		if (n->b->is_const && (n->b->cval < 0 || n->b->cval >= 64)) {
			ERR(s, n->b->loc, E_TYPE, "shift count %lld is not in 0..63",
			    (long long)n->b->cval);
			return set(n, &ty_error);
		}
		break;
	default:
		t = ty_arith(a, b);
	}
	return set(n, t);
}

/* V, converted to integer type T (truncated, then extended). */
static int64_t trunc_to(int64_t v, const struct type *t)
{
	int sh;

	if (t->kind != TY_INT || t->size >= 8)
		return v;
	sh = 64 - t->size * 8;
	return t->is_signed ? (int64_t)((uint64_t)v << sh) >> sh
			    : (int64_t)(((uint64_t)v << sh) >> sh);
}

/* Fold integer constants so that lhist(), unroll() and shifts can see
 * them; cg still emits the general code path for non-constants. */
static void fold(struct node *n)
{
	int64_t a, b, r;
	uint64_t ua, ub;
	bool sgn;

	if (n->kind == N_UNOP && n->a->is_const && n->ty->kind == TY_INT) {
		a = n->a->cval;
		switch (n->op) {
		case T_MINUS: r = (int64_t)(0 - (uint64_t)a); break;
		case T_PLUS: r = a; break;
		case T_TILDE: r = ~a; break;
		case T_BANG: r = !a; break;
		default: return;
		}
		n->cval = trunc_to(r, n->ty);
		n->is_const = 1;
		return;
	}
	if (n->kind != N_BINOP || !n->a->is_const || !n->b->is_const ||
	    n->ty->kind != TY_INT)
		return;
	/* Operands convert to their common type first, as in C:
	 * (uint32)x == (int32)-7 compares 32-bit unsigned values. */
	{
		struct type *ct = (n->op == T_SHL || n->op == T_SHR) ? n->ty :
				  ty_arith(n->a->ty, n->b->ty);

		a = trunc_to(n->a->cval, ct);
		b = (n->op == T_SHL || n->op == T_SHR) ? n->b->cval
						       : trunc_to(n->b->cval, ct);
	}
	ua = (uint64_t)a;
	ub = (uint64_t)b;
	sgn = n->ty->is_signed;
	switch (n->op) {
	case T_PLUS: r = (int64_t)(ua + ub); break;
	case T_MINUS: r = (int64_t)(ua - ub); break;
	case T_STAR: r = (int64_t)(ua * ub); break;
	case T_SLASH:
		if (!b)
			r = 0;
		else if (sgn)
			r = (a == INT64_MIN && b == -1) ? a : a / b;
		else
			r = (int64_t)(ua / ub);
		break;
	case T_PERCENT:
		if (!b)
			r = 0;
		else if (sgn)
			r = (b == -1) ? 0 : a % b;
		else
			r = (int64_t)(ua % ub);
		break;
	case T_AMP: r = a & b; break;
	case T_PIPE: r = a | b; break;
	case T_CARET: r = a ^ b; break;
	case T_SHL: r = (int64_t)(ua << (ub & 63)); break;
	case T_SHR: r = sgn ? a >> (ub & 63) : (int64_t)(ua >> (ub & 63)); break;
	case T_EQ: r = a == b; break;
	case T_NE: r = a != b; break;
	case T_LT: r = sgn ? a < b : ua < ub; break;
	case T_GT: r = sgn ? a > b : ua > ub; break;
	case T_LE: r = sgn ? a <= b : ua <= ub; break;
	case T_GE: r = sgn ? a >= b : ua >= ub; break;
	default: return;
	}
	/* The operands' common type decides how comparisons read them. */
	if (n->op >= T_LT && n->op <= T_NE) {
		struct type *ct = ty_arith(n->a->ty, n->b->ty);

		if (!ct->is_signed) {
			switch (n->op) {
			case T_LT: r = ua < ub; break;
			case T_GT: r = ua > ub; break;
			case T_LE: r = ua <= ub; break;
			case T_GE: r = ua >= ub; break;
			default: break;
			}
		} else {
			switch (n->op) {
			case T_LT: r = a < b; break;
			case T_GT: r = a > b; break;
			case T_LE: r = a <= b; break;
			case T_GE: r = a >= b; break;
			default: break;
			}
		}
	}
	/* Truncate to the result type. */
	if (n->ty->size < 8) {
		int sh = 64 - n->ty->size * 8;

		r = sgn ? (int64_t)((uint64_t)r << sh) >> sh
			: (int64_t)(((uint64_t)r << sh) >> sh);
	}
	n->cval = r;
	n->is_const = 1;
}

struct type *sema_expr(struct sema *s, struct node *n)
{
	struct type *t;

	switch (n->kind) {
	case N_INT:
		n->is_const = 1;
		n->cval = (int64_t)n->ival;
		return set(n, n->ival > INT64_MAX ? &ty_u64 : &ty_s64);
	case N_STR:
		return set(n, str_type(s, (int)n->len + 1));
	case N_POSITIONAL: {
		int64_t v = 0;
		const char *p;

		if (n->ival == 0) {
			ERR(s, n->loc, E_POSITIONAL,
			    "$0 does not exist: parameters start at $1");
			return set(n, &ty_error);
		}
		/* As in bpftrace, a missing parameter is 0, or "" in str(). */
		p = (int)n->ival > s->c->nparams ? "" : s->c->params[n->ival - 1];
		if (!n->extra && (!*p || positional_int(p, &v))) {
			n->is_const = 1;
			n->cval = *p ? v : 0;
			return set(n, &ty_s64);
		}
		n->name = p;
		n->len = strlen(p);
		/* Longer than BPFTRACE_STRLEN: cut, as bpftrace does. */
		if (n->len + 1 > (size_t)s->c->strlen_)
			n->len = (size_t)s->c->strlen_ - 1;
		return set(n, str_type(s, (int)n->len + 1));
	}
	case N_NARGS:
		n->is_const = 1;
		n->cval = s->c->nparams;
		return set(n, &ty_s64);
	case N_VAR: {
		struct var *v = var_find(s, n->name);

		n->var = v;
		if (!v || !v->defined) {
			ERR(s, n->loc, E_UNDEF,
			    "variable %s is used before it is assigned", n->name);
			return set(n, &ty_error);
		}
		return set(n, v->ty);
	}
	case N_MAP: {
		struct mapinfo *m = sema_map_keys(s, n);

		m->read = true;
		if (n->ty == &ty_error)	/* wrong number of keys, reported */
			return n->ty;
		if (m->agg != AGG_NONE) {
			ERR(s, n->loc, E_TYPE,
			    "%s holds %s: its value is merged across CPUs in user space and cannot be read in a probe",
			    m->name, agg_name(m->agg));
			return set(n, &ty_error);
		}
		if (!m->val) {
			/* A map only ever assigned from itself (@x = @x + 1)
			 * is an integer: the second learning pass assumes so. */
			if (s->guess_int)
				return set(n, &ty_s64);
			if (s->report)
				ERR(s, n->loc, E_UNDEF,
				    "%s is read but never assigned", m->name);
			return set(n, &ty_error);
		}
		return set(n, m->val);
	}
	case N_BUILTIN:
		return check_builtin(s, n);
	case N_CALL:
		return sema_call(s, n, false);
	case N_BINOP:
		t = binop(s, n);
		fold(n);
		return t;
	case N_UNOP:
		t = sema_expr(s, n->a);
		if (is_err(t))
			return set(n, &ty_error);
		if (n->op == T_STAR)
			return deref(s, n, t);
		if (n->op == T_AMP) {
			ERR(s, n->loc, E_TYPE,
			    "operator '&' is not supported on %s", type_name(t));
			return set(n, &ty_error);
		}
		if (!is_int(t)) {
			ERR(s, n->loc, E_TYPE, "operator '%s' cannot take %s",
			    tok_spelling(n->op), type_name(t));
			return set(n, &ty_error);
		}
		set(n, n->op == T_BANG ? &ty_s64 : ty_promote(t));
		fold(n);
		return n->ty;
	case N_LAND: case N_LOR: {
		struct type *a = sema_expr(s, n->a), *b = sema_expr(s, n->b);

		if (is_err(a) || is_err(b))
			return set(n, &ty_error);
		if (!is_int(a) || !is_int(b)) {
			ERR(s, n->loc, E_TYPE, "operator '%s' needs integers, not %s and %s",
			    n->kind == N_LAND ? "&&" : "||", type_name(a),
			    type_name(b));
			return set(n, &ty_error);
		}
		return set(n, &ty_s64);
	}
	case N_TERNARY: {
		struct type *c = sema_expr(s, n->a), *a = sema_expr(s, n->b),
			    *b = sema_expr(s, n->c);

		if (is_err(c) || is_err(a) || is_err(b))
			return set(n, &ty_error);
		if (!is_int(c)) {
			ERR(s, n->a->loc, E_TYPE, "condition must be an integer, not %s",
			    type_name(c));
			return set(n, &ty_error);
		}
		if (is_int(a) && is_int(b))
			return set(n, ty_arith(a, b));
		if (a->kind == TY_STR && b->kind == TY_STR)
			return set(n, str_type(s, a->size > b->size ? a->size
							      : b->size));
		ERR(s, n->loc, E_TYPE,
		    "the branches of '?:' have different types: %s and %s",
		    type_name(a), type_name(b));
		return set(n, &ty_error);
	}
	case N_INCDEC: {
		struct node *a = n->a;

		if (a->kind == N_VAR) {
			t = sema_expr(s, a);
		} else if (a->kind == N_MAP) {
			struct mapinfo *m = sema_map_keys(s, a);

			a->map = m;
			if (m->agg != AGG_NONE) {
				ERR(s, n->loc, E_MAP, "%s holds %s and cannot be incremented",
				    m->name, agg_name(m->agg));
				return set(n, &ty_error);
			}
			m->written = m->read = true;
			if (!m->val)
				m->val = &ty_s64;
			t = a->ty = m->val;
		} else {
			ERR(s, n->loc, E_TYPE, "'%s' needs a variable or a map",
			    tok_spelling(n->op));
			return set(n, &ty_error);
		}
		if (is_err(t))
			return set(n, &ty_error);
		if (!is_int(t)) {
			ERR(s, n->loc, E_TYPE, "'%s' cannot take %s",
			    tok_spelling(n->op), type_name(t));
			return set(n, &ty_error);
		}
		return set(n, t);
	}
	case N_CAST: {
		struct type *to = n->tyname_ptr ? NULL : ty_by_name(n->tyname);

		t = sema_expr(s, n->a);
		if (n->tyname_ptr) {
			/* (struct task_struct *)curtask: a kernel pointer,
			 * its target typed from BTF */
			struct type *target = ty_by_name(n->tyname);
			const char *why = NULL;

			if (!target)
				target = cdecl_type_by_name(s->c, n->tyname);
			if (!target && !btf_kernel(s->c, &why)) {
				ERR(s, n->loc, E_TYPE, "cannot cast to '%s *': %s",
				    n->tyname, why);
				return set(n, &ty_error);
			}
			if (!target) {
				ERR(s, n->loc, E_TYPE,
				    "unknown type '%s' (not in the kernel's BTF)",
				    n->tyname);
				return set(n, &ty_error);
			}
			if (is_err(t))
				return set(n, &ty_error);
			if (!is_int(t) && t->kind != TY_PTR) {
				ERR(s, n->loc, E_TYPE, "cannot cast %s to a pointer",
				    type_name(t));
				return set(n, &ty_error);
			}
			to = arena_alloc(&s->c->arena, sizeof(*to));
			to->kind = TY_PTR;
			to->size = 8;
			to->pointee = n->tyname_ptr == 1 ? target : NULL;
			return set(n, to);
		}
		if (!to) {
			ERR(s, n->loc, E_TYPE, "cannot cast to '%s%s' (struct and pointer types come with BTF support)",
			    n->tyname, n->tyname_ptr ? " *" : "");
			return set(n, &ty_error);
		}
		if (is_err(t))
			return set(n, &ty_error);
		if (!is_int(t)) {
			ERR(s, n->loc, E_TYPE, "cannot cast %s to %s", type_name(t),
			    type_name(to));
			return set(n, &ty_error);
		}
		if (!strcmp(n->tyname, "bool")) {
			n->op = 1;	/* cg: compare with zero */
			if (n->a->is_const) {
				n->is_const = 1;
				n->cval = n->a->cval != 0;
			}
			return set(n, to);
		}
		if (n->a->is_const) {
			int sh = 64 - to->size * 8;
			uint64_t u = (uint64_t)n->a->cval;

			n->is_const = 1;
			n->cval = to->is_signed ? (int64_t)(u << sh) >> sh
						: (int64_t)((u << sh) >> sh);
		}
		return set(n, to);
	}
	case N_FIELD: {
		if (n->a->kind == N_BUILTIN && !strcmp(n->a->name, "args"))
			return args_field(s, n);
		t = sema_expr(s, n->a);
		if (is_err(t))
			return set(n, &ty_error);
		if (t->kind == TY_PTR || t->kind == TY_STRUCT)
			return btf_field(s, n, t);
		if (t->kind == TY_TUPLE && n->op == T_DOT &&
		    n->name[0] >= '0' && n->name[0] <= '9') {
			if (n->ival >= (uint64_t)t->nelem) {
				ERR(s, n->loc, E_TYPE, "tuple index %s is out of range (%d elements)",
				    n->name, t->nelem);
				return set(n, &ty_error);
			}
			return set(n, t->elem[n->ival]);
		}
		ERR(s, n->loc, E_TYPE, "%s has no field '%s'", type_name(t), n->name);
		return set(n, &ty_error);
	}
	case N_INDEX:
		t = sema_expr(s, n->a);
		sema_expr(s, n->b);
		if (!is_err(t))
			ERR(s, n->loc, E_TYPE, "%s cannot be indexed", type_name(t));
		return set(n, &ty_error);
	case N_TUPLE: {
		struct type **e = arena_alloc(&s->c->arena,
					      sizeof(*e) * (size_t)n->nargs);

		for (int i = 0; i < n->nargs; i++) {
			e[i] = sema_expr(s, n->args[i]);
			if (is_err(e[i]))
				return set(n, &ty_error);
			if (e[i]->kind != TY_STR && e[i]->kind != TY_TUPLE &&
			    e[i]->kind != TY_USYM && e[i]->kind != TY_INET &&
			    e[i]->kind != TY_MAC && e[i]->kind != TY_BUF &&
			    !ty_is_word(e[i])) {
				ERR(s, n->args[i]->loc, E_TYPE,
				    "a tuple cannot hold %s", type_name(e[i]));
				return set(n, &ty_error);
			}
			if (e[i]->kind == TY_INT)
				e[i] = ty_int(8, e[i]->is_signed);
		}
		return set(n, ty_tuple(&s->c->arena, e, n->nargs));
	}
	case N_SIZEOF:
		if (n->tyname) {
			t = n->tyname_ptr ? &ty_u64 : ty_by_name(n->tyname);
			if (!t && !n->tyname_ptr)
				t = cdecl_type_by_name(s->c, n->tyname);
			if (!t) {
				ERR(s, n->loc, E_TYPE, "unknown type '%s'", n->tyname);
				return set(n, &ty_error);
			}
		} else {
			t = sema_expr(s, n->a);
			if (is_err(t))
				return set(n, &ty_error);
			if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
				ERR(s, n->a->loc, E_TYPE, "sizeof needs a value, not %s",
				    t->kind == TY_VOID ? "a call without one" :
				    "a whole map");
				return set(n, &ty_error);
			}
		}
		n->is_const = 1;
		n->cval = t->size;
		return set(n, &ty_u64);
	default:
		ERR(s, n->loc, E_SYNTAX, "%s is not an expression",
		    node_kind_name(n->kind));
		return set(n, &ty_error);
	}
}

/* @m[k] = count() and friends. */
static void agg_assign(struct sema *s, struct node *n)
{
	struct node *target = n->a, *call = n->b;
	struct mapinfo *m;
	enum agg_kind agg;
	struct type *vt = &ty_s64;
	int f = sema_func_lookup(call->name);
	int64_t lmin = 0, lmax = 0, lstep = 0;

	sema_call(s, call, true);
	if (target->kind != N_MAP) {
		ERR(s, target->loc, E_TYPE, "%s() can only be assigned to a map",
		    call->name);
		return;
	}
	if (n->op != T_ASSIGN) {
		ERR(s, n->loc, E_TYPE, "%s() needs '=', not '%s'", call->name,
		    tok_spelling(n->op));
		return;
	}
	m = sema_map_keys(s, target);
	target->ty = &ty_void;
	if (is_err(call->ty))
		return;
	switch (f) {
	case F_COUNT: agg = AGG_COUNT; break;
	case F_SUM: agg = AGG_SUM; break;
	case F_AVG: agg = AGG_AVG; break;
	case F_MIN: agg = AGG_MIN; break;
	case F_MAX: agg = AGG_MAX; break;
	case F_STATS: agg = AGG_STATS; break;
	case F_HIST: agg = AGG_HIST; break;
	default: agg = AGG_LHIST; break;
	}
	if (f != F_COUNT) {
		struct type *t = call->args[0]->ty;	/* check_call typed it */

		if (is_err(t))
			return;
		if (!is_int(t)) {
			ERR(s, call->args[0]->loc, E_TYPE, "%s() needs an integer, not %s",
			    call->name, type_name(t));
			return;
		}
		vt = ty_int(8, t->is_signed);
	}
	if (f == F_LHIST) {
		if (!sema_const_int(s, call->args[1], &lmin, "lhist() min") ||
		    !sema_const_int(s, call->args[2], &lmax, "lhist() max") ||
		    !sema_const_int(s, call->args[3], &lstep, "lhist() step"))
			return;
		if (lstep <= 0) {
			ERR(s, call->args[3]->loc, E_ARGS, "lhist() step must be positive");
			return;
		}
		if (lmax <= lmin) {
			ERR(s, call->args[2]->loc, E_ARGS, "lhist() max must be greater than min");
			return;
		}
		/* every later max - min (buckets, labels) is int64 */
		if ((uint64_t)lmax - (uint64_t)lmin > INT64_MAX) {
			ERR(s, call->args[2]->loc, E_LIMIT,
			    "lhist() max - min must be below 2^63");
			return;
		}
		if ((lmax - lmin) / lstep > LHIST_MAX_BUCKETS) {
			ERR(s, call->loc, E_LIMIT, "lhist() would have more than %d buckets",
			    LHIST_MAX_BUCKETS);
			return;
		}
	}
	m->written = true;
	if (m->agg == AGG_NONE && !m->val) {
		m->agg = agg;
		m->val = vt;
		m->lh_min = lmin;
		m->lh_max = lmax;
		m->lh_step = lstep;
		return;
	}
	if (m->agg != agg) {
		ERR(s, call->loc, E_MAP, "%s already holds %s (first used at %d:%d), not %s",
		    m->name, agg_name(m->agg), m->first.line, m->first.col,
		    agg_name(agg));
		return;
	}
	if (agg == AGG_LHIST && (m->lh_min != lmin || m->lh_max != lmax ||
				 m->lh_step != lstep)) {
		ERR(s, call->loc, E_MAP, "%s is an lhist() with other bounds elsewhere",
		    m->name);
		return;
	}
	/* Values fed in from several places meet in their common C type
	 * (uint64 wins over int64), which min/max compare and print in. */
	if (m->val)
		m->val = ty_arith(m->val, vt);
}

static bool is_agg_call(struct node *n)
{
	if (n->kind != N_CALL)
		return false;
	return sema_is_agg_func(sema_func_lookup(n->name));
}

static void assign(struct sema *s, struct node *n)
{
	struct node *target = n->a;
	struct type *t, *u;

	if (is_agg_call(n->b)) {
		agg_assign(s, n);
		return;
	}
	t = sema_expr(s, n->b);
	if (target->kind == N_VAR) {
		struct var *v = var_find(s, target->name);

		if (n->op != T_ASSIGN) {
			struct type *old = sema_expr(s, target);

			if (is_err(old) || is_err(t))
				return;
			if (!is_int(old) || !is_int(t)) {
				ERR(s, n->loc, E_TYPE, "'%s' needs integers, not %s and %s",
				    tok_spelling(n->op), type_name(old), type_name(t));
			}
			return;
		}
		if (is_err(t)) {
			/* Already reported: define it so that its uses do not
			 * cascade into "used before assigned" errors. */
			if (!v)
				v = var_new(s, target, &ty_error);
			v->defined = true;
			target->var = v;
			return;
		}
		if (t->kind == TY_STRUCT) {
			ERR(s, n->b->loc, E_TYPE,
			    "a %s cannot be copied into a variable: keep a pointer to it, or its members",
			    t->sname);
			return;
		}
		if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
			ERR(s, n->b->loc, E_TYPE, "cannot assign %s to a variable",
			    t->kind == TY_VOID ? "a call without a value" : "a whole map");
			return;
		}
		if (!v) {
			/* An integer variable keeps its C type while every
			 * assignment agrees on it: uint32 $c stays uint32. */
			v = var_new(s, target, t->kind == TY_INT ? ty_promote(t) :
				    storage(s, t));
		} else if (v->ty->kind == TY_PTR && is_int(t)) {
			/* a pointer variable stays typed */
		} else if (v->ty->kind == TY_INT && is_int(t)) {
			if (!ty_equal(v->ty, ty_promote(t)))
				v->ty = ty_int(8, v->ty->is_signed);
		} else {
			u = unify(s, v->ty, storage(s, t));
			if (!u)
				ERR(s, n->loc, E_TYPE,
				    "%s holds %s (from %d:%d); cannot assign %s",
				    v->name, type_name(v->ty), v->first.line,
				    v->first.col, type_name(t));
			else
				v->ty = u;
		}
		v->defined = true;
		target->var = v;
		target->ty = v->ty;
		return;
	}
	if (target->kind == N_MAP) {
		struct mapinfo *m = sema_map_keys(s, target);

		m->written = true;
		if (n->op != T_ASSIGN)
			m->read = true;
		if (m->agg != AGG_NONE) {
			ERR(s, n->loc, E_MAP, "%s holds %s (first used at %d:%d); cannot assign a value",
			    m->name, agg_name(m->agg), m->first.line, m->first.col);
			return;
		}
		if (target->ty == &ty_error)	/* reported by map_keys */
			return;
		if (is_err(t))
			return;
		if (t->kind == TY_STRUCT) {
			ERR(s, n->b->loc, E_TYPE,
			    "a %s cannot be stored in a map: store a pointer to it, or its members",
			    t->sname);
			return;
		}
		if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
			ERR(s, n->b->loc, E_TYPE, "cannot store %s in a map",
			    t->kind == TY_VOID ? "a call without a value" : "a whole map");
			return;
		}
		if (n->op != T_ASSIGN && !is_int(t)) {
			ERR(s, n->loc, E_TYPE, "'%s' needs an integer, not %s",
			    tok_spelling(n->op), type_name(t));
			return;
		}
		if (!m->val) {
			m->val = storage(s, t);
		} else {
			u = unify(s, m->val, storage(s, t));
			if (!u)
				ERR(s, n->loc, E_MAP,
				    "%s holds %s values (first used at %d:%d), not %s",
				    m->name, type_name(m->val), m->first.line,
				    m->first.col, type_name(t));
			else
				m->val = u;
		}
		target->ty = m->val;
		return;
	}
	sema_expr(s, target);
	ERR(s, target->loc, E_TYPE, "only variables ($x) and maps (@x) can be assigned");
}

static void block(struct sema *s, struct node *b)
{
	for (int i = 0; i < b->nargs; i++)
		stmt(s, b->args[i]);
}

static void cond(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n);

	if (!is_err(t) && !is_int(t))
		ERR(s, n->loc, E_TYPE, "condition must be an integer, not %s",
		    type_name(t));
}

static void stmt(struct sema *s, struct node *n)
{
	switch (n->kind) {
	case N_EXPRSTMT: {
		struct type *t = sema_expr(s, n->a);

		(void)t;
		if (n->a->kind == N_MAP && !n->a->nargs)
			ERR(s, n->a->loc, E_SYNTAX, "a map alone is not a statement");
		break;
	}
	case N_ASSIGN:
		assign(s, n);
		break;
	case N_IF:
		cond(s, n->a);
		block(s, n->b);
		if (n->c)
			block(s, n->c);
		break;
	case N_WHILE:
		cond(s, n->a);
		block(s, n->b);
		break;
	case N_UNROLL: {
		int64_t k;

		if (sema_const_int(s, n->a, &k, "unroll count") &&
		    (k < 1 || k > 100)) {
			ERR(s, n->a->loc, E_LIMIT, "unroll count must be in 1..100");
			n->a->cval = 1;
		}
		block(s, n->b);
		break;
	}
	case N_BLOCK:
		block(s, n);
		break;
	case N_RETURN: case N_BREAK: case N_CONTINUE:
		break;
	default:
		sema_expr(s, n);
	}
}

static void finalize_maps(struct compiler *c)
{
	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];

		if (m->nkeys < 0)
			m->nkeys = 0;
		/* a keyless map has one zero key, a keyless hist only
		 * its bucket index (below) */
		m->key_size = m->key ? ty_slot_size(m->key) :
			      (m->agg == AGG_HIST || m->agg == AGG_LHIST) ? 0 : 8;
		/* A keyless map holds one entry, a keyless histogram one per
		 * bucket: the kernel preallocates every entry of a hash map
		 * (per CPU, for aggregations), which took 1.4 ms of a hist
		 * script's start with 4096. */
		if (m->key)
			m->max_entries = c->map_keys_max;
		else if (m->agg == AGG_HIST)
			m->max_entries = 66;
		else if (m->agg == AGG_LHIST)
			m->max_entries = (m->lh_max - m->lh_min) / m->lh_step + 2 <
					 c->map_keys_max ?
					 (int)((m->lh_max - m->lh_min) / m->lh_step + 2) :
					 c->map_keys_max;
		else
			m->max_entries = 1;
		switch (m->agg) {
		case AGG_NONE:
			m->value_size = m->val ? ty_slot_size(m->val) : 8;
			m->bpf_type = BPF_MAP_TYPE_HASH;
			break;
		case AGG_COUNT: case AGG_SUM:
			m->value_size = 8;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		case AGG_HIST: case AGG_LHIST:
			m->key_size += 8;	/* bucket index */
			m->value_size = 8;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		default:	/* min max: {value, set}; avg stats: {count, total} */
			m->value_size = 16;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
		}
	}
}

int sema_stack_map(struct compiler *c, int depth)
{
	for (int i = 0; i < c->nstack_maps; i++)
		if (c->stack_depths[i] == depth)
			return i;
	if (!c->stack_depths)
		c->stack_depths = arena_alloc(&c->arena, sizeof(int) *
					      KSTACK_MAX_DEPTH);
	c->stack_depths[c->nstack_maps] = depth;
	return c->nstack_maps++;
}

int sema_check(struct compiler *c)
{
	struct sema s;
	int errors_before = c->diag.nerrors;

	memset(&s, 0, sizeof(s));
	s.c = c;
	if (cdecl_define(c))
		return -1;
	/* Probe specs first: `probe` needs the longest name. */
	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = arena_alloc(&c->arena, sizeof(*pi));
		int total = 0;
		struct probe_spec **lists;
		int *counts;

		p->extra = pi;
		lists = arena_alloc(&c->arena, sizeof(*lists) * (size_t)p->nargs);
		counts = arena_alloc(&c->arena, sizeof(*counts) * (size_t)p->nargs);
		for (int i = 0; i < p->nargs; i++) {
			if (probe_expand(c, p->args[i], &lists[i], &counts[i]))
				counts[i] = 0;
			total += counts[i];
		}
		pi->specs = arena_alloc(&c->arena, sizeof(*pi->specs) *
					(size_t)(total ? total : 1));
		for (int i = 0; i < p->nargs; i++)
			for (int j = 0; j < counts[i]; j++)
				pi->specs[pi->nspecs++] = lists[i][j];
		pi->name_max = 1;
		for (int i = 0; i < pi->nspecs; i++) {
			int len = (int)strlen(pi->specs[i].name) + 1;

			if (len > pi->name_max)
				pi->name_max = len;
		}
	}
	if (c->diag.nerrors > errors_before)
		return -1;
	/* passes: 0 learn, 1 learn guessing unknown maps are integers,
	 * 2 check and report */
	for (int pass = 0; pass < 3; pass++) {
		s.report = pass == 2;
		s.guess_int = pass == 1;
		for (struct node *p = c->ast->probes; p; p = p->next) {
			s.probe = p;
			s.pi = p->extra;
			for (struct var *v = s.pi->vars; v; v = v->next)
				v->defined = false;
			if (p->a)
				cond(&s, p->a);
			block(&s, p->b);
		}
		if (c->diag.nerrors > errors_before) {
			if (c->diag.nerrors - errors_before > MAX_ERRORS)
				fprintf(c->diag.out, "%s: %d more errors not shown\n",
					c->diag.file,
					c->diag.nerrors - errors_before - MAX_ERRORS);
			return -1;
		}
	}
	finalize_maps(c);
	return 0;
}
