/* sema_map.c - what sema keeps across a script: its maps (keys and
 * values merged by unify() over every use), its variables per probe
 * block, and the events the probes send to user space. */
#include "sema/sema_int.h"

#include "catalog/btf.h"

#include <string.h>

static struct type *unify(struct sema *s, struct type *old, struct type *new,
			  bool in_tuple);

/* Merge two types stored in the same place (a variable, a map key or
 * value): integers widen to 64 bits (in a tuple to the wider of the
 * two), strings to the longer, tuples element-wise.  NULL if they
 * cannot share storage. */
struct type *sema_unify(struct sema *s, struct type *old, struct type *new)
{
	return unify(s, old, new, false);
}

/* Integers stored in one place.  In 0.17 the first one's sign wins
 * and values take 64 bits (in a tuple the wider size).  In 0.26 (see
 * language.md, "Data Types") a type that holds both: a non-negative
 * literal takes the other's sign, mixed signs give a signed type wide
 * enough for the unsigned one, int64 at most; a bool only meets bools,
 * an enum's value stays one only with its own enum. */
static struct type *unify_int(struct sema *s, struct type *old,
			      struct type *new, bool in_tuple)
{
	int size = old->size > new->size ? old->size : new->size;
	bool sign = old->is_signed;
	const struct type *like = old;

	if (s->c->dialect_017)
		return in_tuple ? ty_int(size, sign) : ty_int(8, sign);
	/* D: a key's type is its first use's (a later one is converted
	 * to it), as dtrace types an aggregation's keys */
	if (s->c->lang_d && in_tuple && !old->literal && !old->boolean &&
	    !new->boolean)
		return old;
	if (old->boolean != new->boolean)
		return NULL;
	if (old->literal && new->literal)
		return old;
	if (old->literal) {
		sign = new->is_signed;
		like = new;
	} else if (!new->literal && old->is_signed != new->is_signed) {
		int usize = old->is_signed ? new->size : old->size;

		sign = true;
		if (usize >= size)
			size = usize < 8 ? 2 * usize : 8;
		/* variables keep their sizes; map keys and values are
		 * widened to 64 bits already, so only variables warn */
		if (usize == 8 && !s->report && !s->guess_int &&
		    s->assigning && s->assigning->a->kind == N_VAR)
			diag_warn(&s->c->diag, s->assigning->loc,
				  "a signed and an unsigned 64-bit integer meet here: stored as int64, large unsigned values read as negative");
	}
	if (old->edef != new->edef && !old->literal && !new->literal)
		like = &ty_s64;
	return ty_resize(&s->c->arena, like, in_tuple ? size : 8, sign);
}

static struct type *unify(struct sema *s, struct type *old, struct type *new,
			  bool in_tuple)
{
	if (!old || is_err(old))
		return new;
	if (is_err(new))
		return old;
	if (old->kind != new->kind)
		return NULL;
	switch (old->kind) {
	case TY_INT:
		return unify_int(s, old, new, in_tuple);
	case TY_STR: case TY_BUF:
		return old->size >= new->size ? old : new;
	case TY_KSTACK:		/* ids of stacks of another depth, another map */
	case TY_ARRAY: case TY_STRUCT:
		return ty_equal(old, new) ? old : NULL;
	case TY_TUPLE: {
		struct type **e;
		bool same = true;

		struct type *t;

		if (old->nelem != new->nelem || !old->names != !new->names)
			return NULL;
		e = arena_alloc(&s->c->arena, sizeof(*e) * (size_t)old->nelem);
		for (int i = 0; i < old->nelem; i++) {
			/* records: the field of the same name, in any order
			 * (the result keeps the first order) */
			int k = old->names ? ty_field(new, old->names[i]) : i;

			e[i] = k < 0 ? NULL : unify(s, old->elem[i],
						    new->elem[k],
						    !old->slots || s->c->lang_d);
			if (!e[i])
				return NULL;
			if (e[i] != old->elem[i])
				same = false;
		}
		if (same)
			return old;
		t = old->slots ? ty_tuple_slots(&s->c->arena, e, old->nelem) :
				 ty_tuple(&s->c->arena, e, old->nelem);
		t->names = old->names;
		return t;
	}
	default:
		return old;
	}
}

/* Make T usable as a value (copied, stored, printed): the member lists
 * of the kernel structs in it, which out/ walks to print them. */
static void value_type(struct sema *s, struct type *t, int depth)
{
	if (depth > 32)
		return;
	if (t->kind == TY_ARRAY) {
		value_type(s, t->of, depth + 1);
		return;
	}
	if (t->kind != TY_STRUCT)
		return;
	if (t->btf_id && !t->nmembers)
		btf_struct_layout(s->c, t);
	for (int i = 0; i < t->nmembers; i++)
		if (t->members[i].ty)
			value_type(s, t->members[i].ty, depth + 1);
}

/* Storage form of a value type: integers are kept as 64-bit, except
 * inside a tuple, whose layout is bpftrace's; struct values learn their
 * members.  Strings keep their size: unify() grows the storage to the
 * longest value stored, which the second pass sees. */
struct type *sema_storage(struct sema *s, struct type *t)
{
	if (t->kind == TY_ARRAY || t->kind == TY_STRUCT)
		value_type(s, t, 0);
	if (t->kind == TY_INT)
		return t->literal ? t : ty_resize(&s->c->arena, t, 8,
						   t->is_signed);
	return t;
}

/* A key's storage: D keeps an integer key's own size (DTrace prints
 * an int key as an int); bpftrace widens it to 64 bits. */
static struct type *key_storage(struct sema *s, struct type *kt)
{
	if (s->c->lang_d && kt->kind == TY_INT)
		return kt->literal ? &ty_s64 : kt;
	return sema_storage(s, kt);
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
	sema_decl_apply(s, m);
	sema_d_declared_map(s, m);
	return n->map = m;
}

static bool key_kind(enum ty_kind k)
{
	return k == TY_INT || k == TY_STR || k == TY_TUPLE || k == TY_KSTACK ||
	       k == TY_KSYM || k == TY_USYM || k == TY_USERNAME ||
	       k == TY_INET || k == TY_MAC || k == TY_BUF || k == TY_TSTAMP ||
	       k == TY_STRERROR || k == TY_ARRAY || k == TY_STRUCT ||
	       k == TY_PTR || k == TY_CGPATH;
}

/* D: each integer key of N (a use of a map whose keys are of type
 * KEY, its first use's) converted to its element's type, as dtrace
 * converts it: (char)1 and 257 are one key of a char-keyed map. */
static void d_key_casts(struct sema *s, struct node *n, const struct type *key)
{
	static const char *const names[2][4] = {
		{ "uint8_t", "uint16_t", "uint32_t", "uint64_t" },
		{ "int8_t", "int16_t", "int32_t", "int64_t" },
	};

	for (int i = 0; i < n->nargs; i++) {
		const struct type *want = key->kind == TY_TUPLE ?
			(i < key->nelem ? key->elem[i] : NULL) : key;
		struct node *a = n->args[i], *c;
		int lg;

		if (!want || want->kind != TY_INT || !a->ty || a->ty->kind != TY_INT ||
		    (a->ty->size == want->size && a->ty->is_signed == want->is_signed))
			continue;
		lg = want->size == 1 ? 0 : want->size == 2 ? 1 : want->size == 4 ? 2 : 3;
		c = arena_alloc(&s->c->arena, sizeof(*c));
		memset(c, 0, sizeof(*c));
		c->kind = N_CAST;
		c->loc = a->loc;
		c->tyname = names[want->is_signed ? 1 : 0][lg];
		c->a = a;
		n->args[i] = c;
		sema_expr(s, c);
	}
}

/* Check the keys of @m[...] and merge them into the map's key type. */
struct mapinfo *sema_map_keys(struct sema *s, struct node *n)
{
	struct mapinfo *m = sema_map_get(s, n);
	struct type *kt = NULL, *u;

	n->ty = NULL;	/* set to ty_error below if the keys are wrong */

	if (s->c->lang_d && n->ival == 2 && n->name[0] == '@') {	/* dparse.c */
		DERR(s, n->loc, E_SYNTAX, "D_AGG_MDIM",
		     "%s[ ][ ]: aggregations have one list of keys: write %s[a, b]",
		     n->name, n->name);
		n->ty = &ty_error;
		return m;
	}

	/* D: an aggregation, or a (void) value, is no key */
	for (int i = 0; s->c->lang_d && i < n->nargs; i++) {
		struct node *k = n->args[i];
		bool agg = k->kind == N_MAP && k->name[0] == '@';

		if (agg || (k->kind == N_CAST && k->tyname &&
			    !strcmp(k->tyname, "void") && !k->tyname_ptr)) {
			DERR(s, k->loc, E_TYPE, "D_KEY_TYPE",
			     "%s[ ] key #%d is of a type no key can have: %s",
			     n->name, i + 1, agg ? "aggregation" : "void");
			n->ty = &ty_error;
			return m;
		}
	}
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
		/* several keys: each in its 8-byte slots, integers 64-bit
		 * (D's keep their size, printed so) */
		for (int i = 0; i < n->nargs; i++)
			e[i] = key_storage(s, e[i]);
		kt = ty_tuple_slots(&s->c->arena, e, n->nargs);
	}
	if (kt && is_err(kt))
		return m;
	/* D names the key's type its own way: D_KEY_TYPE */
	if (kt && !key_kind(kt->kind)) {
		DERR(s, n->args[0]->loc, E_TYPE, "D_KEY_TYPE",
		     "a %s cannot be a map key", type_name(kt));
		return m;
	}
	if (kt && kt->kind == TY_TUPLE) {
		for (int i = 0; i < kt->nelem; i++) {
			if (!key_kind(kt->elem[i]->kind)) {
				DERR(s, n->args[i]->loc, E_TYPE, "D_KEY_TYPE",
				     "a %s cannot be part of a map key",
				     type_name(kt->elem[i]));
				return m;
			}
		}
	}
	if (m->nkeys < 0) {
		m->nkeys = n->nargs;
		m->key = kt ? key_storage(s, kt) : NULL;
		return m;
	}
	if (m->nkeys != n->nargs && s->c->lang_d && m->nkeys > 0 &&
	    n->nargs > 0 && m->name[0] != '@') {
		int self = !strncmp(m->name, "self->", 6);

		DERR(s, n->loc, E_ARGS, "D_PROTO_LEN",
		     "%s[ ] prototype mismatch: %d key%s passed, %d expected",
		     m->name, n->nargs - self, n->nargs - self == 1 ? "" : "s",
		     m->nkeys - self);
		n->ty = &ty_error;
		return m;
	}
	if (m->nkeys > 0 && !n->nargs && s->c->lang_d && m->name[0] != '@') {
		DERR(s, n->loc, E_TYPE, "D_IDENT_BADREF",
		     "associative array '%s' may not be referenced as scalar",
		     m->name);
		n->ty = &ty_error;
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
		u = s->c->lang_d ? unify(s, m->key, key_storage(s, kt), true) :
				   sema_unify(s, m->key, sema_storage(s, kt));
		if (!u && s->c->lang_d && m->name[0] != '@') {
			int i = 0, self = !strncmp(m->name, "self->", 6);
			const struct type *want = m->key, *got = kt;

			if (m->key->kind == TY_TUPLE && kt->kind == TY_TUPLE)
				for (i = 0; i < kt->nelem - 1 && i < m->key->nelem - 1 &&
					    (kt->elem[i]->kind == TY_STR) ==
					    (m->key->elem[i]->kind == TY_STR); i++)
					;
			if (m->key->kind == TY_TUPLE && kt->kind == TY_TUPLE) {
				want = m->key->elem[i];
				got = kt->elem[i];
			}
			DERR(s, n->args[i < n->nargs ? i : 0]->loc, E_TYPE,
			     "D_PROTO_ARG",
			     "%s[ ] key #%d is incompatible with prototype:\n"
			     "\tprototype: %s\n\t      key: %s", m->name,
			     i + 1 - self, sema_d_type_name(want),
			     sema_d_type_name(got));
		} else if (!u)
			ERR(s, n->loc, E_MAP,
			    "%s has %s keys, not %s (first used at %d:%d)",
			    m->name, type_name(m->key), type_name(kt),
			    m->first.line, m->first.col);
		else
			m->key = u;
		if (u && s->c->lang_d)
			d_key_casts(s, n, u);
	}
	return m;
}

const char *sema_agg_name(enum agg_kind a)
{
	static const char *const names[] = {
		"a plain value", "count()", "sum()", "min()", "max()", "avg()",
		"stats()", "hist()", "lhist()", "tseries()", "stddev()",
		"quantize()", "llquantize()",
	};
	return names[a];
}

struct var *sema_var_find(struct sema *s, const char *name)
{
	struct var *v = strmap_get(&s->pi->var_names, name);

	if (!s->scoped)
		return v;
	while (v && !v->live)
		v = v->same;
	return v;
}

struct var *sema_var_new(struct sema *s, struct node *target,
			   struct type *ty)
{
	struct var *v = arena_alloc(&s->c->arena, sizeof(*v));

	v->name = target->name;
	v->first = target->loc;
	v->ty = ty;
	v->decl = target;
	v->same = strmap_get(&s->pi->var_names, v->name);
	if (s->scoped) {
		v->scope = s->scope;
		sema_var_live(s, v);
	}
	v->next = s->pi->vars;
	s->pi->vars = v;
	strmap_put(&s->pi->var_names, &s->c->arena, v->name, v);
	return v;
}

bool sema_pinned(const struct sema *s)
{
	for (int i = 0; s->pi && i < s->pi->nspecs; i++)
		if (s->pi->specs[i].pin)
			return true;
	return false;
}

struct event_spec *sema_add_event(struct sema *s, struct node *n,
				    enum ev_kind kind)
{
	struct compiler *c = s->c;
	struct event_spec *e;

	if (kind != EV_PRINTF && sema_pinned(s))
		ERR(s, n->loc, E_CONTEXT,
		    "%s: a pinned iterator prints with printf() alone (it runs when its file is read, after sonde is gone)",
		    s->pi->specs[0].name);
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

		if (t->kind == TY_INT) {
			e->args[i].isize = t->size;
			/* a D variable: the widest value it was given */
			if (args[i]->kind == N_MAP && args[i]->map &&
			    args[i]->map->dsize)
				e->args[i].isize = args[i]->map->dsize;
			t = ty_resize(&s->c->arena, t, 8, t->is_signed);
		}
		e->args[i].ty = t;
		e->args[i].off = off;
		off += ty_slot_size(t);
	}
	e->size = off;
}
