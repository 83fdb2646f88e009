/* sema_value.c - the values today's bpftrace (0.26) adds to 0.17's:
 * bools, records (named tuples), enum-typed values and offsetof().
 * Each is an integer or a tuple underneath, so cg and the layouts of
 * maps and records treat them as those; the type carries what out/
 * needs to print them (docs/internals.md, "Values of 0.26"). */
#include "sema/sema_int.h"

#include <string.h>

#include "catalog/btf.h"
#include "sema/cdecl.h"

struct type *sema_bool_type(struct sema *s)
{
	/* D, as C: a comparison or ! is an int */
	return s->c->dialect_017 ? &ty_s64 : s->c->lang_d ? &ty_s32 : &ty_bool;
}

/* An integer of 64 bits whose value prints by enum D's names. */
static struct type *enum_type(struct sema *s, const struct enum_def *d)
{
	struct type *t = arena_alloc(&s->c->arena, sizeof(*t));

	*t = ty_s64;
	t->edef = d;
	return t;
}

struct type *sema_enum_const(struct sema *s, const char *name)
{
	const struct enum_def *d;
	int64_t v;

	if (s->c->dialect_017)
		return &ty_s64;
	d = strmap_get(&s->c->enum_defs, name);
	if (!d && !cdecl_enum(s->c, name, &v) &&
	    btf_enum_value(s->c, name, &v))
		d = btf_enum_of(s->c, name);
	return d ? enum_type(s, d) : &ty_s64;
}

struct type *sema_enum_cast(struct sema *s, struct node *n, struct type *t)
{
	struct type *e = cdecl_type_by_name(s->c, n->tyname);
	const struct enum_def *d = e && e->kind == TY_INT ? e->edef : NULL;

	if (!d)
		d = btf_enum_def(s->c, n->tyname);
	if (!d) {
		ERR(s, n->loc, E_TYPE, "unknown type '%s'", n->tyname);
		return set(n, &ty_error);
	}
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to %s", type_name(t),
		    n->tyname);
		return set(n, &ty_error);
	}
	if (n->a->is_const) {
		n->is_const = 1;
		n->cval = n->a->cval;
	}
	return set(n, enum_type(s, d));
}

/* (bool)"text": whether the string is not empty, its first byte; a
 * literal folds. */
struct type *sema_bool_cast(struct sema *s, struct node *n, struct type *t)
{
	if (t->kind != TY_STR) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to bool", type_name(t));
		return set(n, &ty_error);
	}
	if (n->a->kind == N_STR) {
		n->is_const = 1;
		n->cval = n->a->len > 0 && n->a->name[0];
	}
	n->op = 2;	/* cg: the first byte, compared with zero */
	return set(n, &ty_bool);
}

/* (a=1, b="x"): a tuple whose elements are named, in source order. */
struct type *sema_record(struct sema *s, struct node *n, struct type **e)
{
	struct type *t;

	for (int i = 0; i < n->nargs; i++) {
		for (int j = 0; j < i; j++) {
			if (!strcmp(n->fnames[i], n->fnames[j])) {
				ERR(s, n->args[i]->loc, E_TYPE,
				    "field '%s' appears twice in the record",
				    n->fnames[i]);
				return set(n, &ty_error);
			}
		}
	}
	t = ty_tuple(&s->c->arena, e, n->nargs);
	t->names = n->fnames;
	return set(n, t);
}

/* $r.name of record T: the element named so. */
struct type *sema_record_field(struct sema *s, struct node *n, struct type *t)
{
	int i = ty_field(t, n->name);

	if (i < 0) {
		ERR(s, n->loc, E_TYPE, "record %s has no field '%s'",
		    type_name(t), n->name);
		return set(n, &ty_error);
	}
	n->ival = (uint64_t)i;
	return set(n, t->elem[i]);
}

/* offsetof(struct X, a.b) or offsetof(EXPR, a.b): the byte offset of
 * the member, a constant. */
struct type *sema_offsetof(struct sema *s, struct node *n)
{
	struct type *t;
	char path[256];

	if (n->tyname) {
		t = n->tyname_ptr ? NULL : cdecl_type_by_name(s->c, n->tyname);
		if (!t && s->c->lang_d) {
			DERR(s, n->loc, E_TYPE, "D_OFFSETOF_TYPE",
			     "offsetof operand must be a struct or union type");
			return set(n, &ty_error);
		}
		if (!t) {
			ERR(s, n->loc, E_TYPE, "offsetof needs a struct, not '%s%s'",
			    n->tyname, n->tyname_ptr ? " *" : "");
			return set(n, &ty_error);
		}
	} else {
		t = sema_expr(s, n->a);
		if (is_err(t))
			return set(n, &ty_error);
		if (t->kind == TY_PTR && t->pointee)	/* what it points to */
			t = t->pointee;
	}
	n->cval = 0;
	snprintf(path, sizeof(path), "%s", n->name);
	for (char *f = strtok(path, "."); f; f = strtok(NULL, ".")) {
		struct btf_member_info mi;
		int i = ty_field(t, f);

		if (i >= 0) {		/* a record's field */
			n->cval += t->off[i];
			t = t->elem[i];
			continue;
		}
		if (t->kind != TY_STRUCT) {
			ERR(s, n->loc, E_TYPE, "offsetof: %s has no field '%s'",
			    type_name(t), f);
			return set(n, &ty_error);
		}
		if (btf_member(s->c, t, f, &mi)) {
			ERR(s, n->loc, E_TYPE, "offsetof: %s has no field '%s'",
			    type_name(t), f);
			return set(n, &ty_error);
		}
		if (mi.bit_size && s->c->lang_d) {
			DERR(s, n->loc, E_TYPE, "D_OFFSETOF_BITFIELD",
			     "cannot take offset of a bit-field: %s", f);
			return set(n, &ty_error);
		}
		n->cval += mi.offset;
		t = mi.ty;
	}
	n->is_const = 1;
	return set(n, &ty_u64);
}

struct type *sema_c_int_type(struct sema *s, struct type *t,
			     const char *ctype)
{
	const struct enum_def *d;

	if (t->kind != TY_INT)
		return t;
	if (!strcmp(ctype, "bool") || !strcmp(ctype, "_Bool"))
		return ty_resize(&s->c->arena, &ty_bool, t->size, false);
	if (strncmp(ctype, "enum ", 5) || !(d = btf_enum_def(s->c, ctype)))
		return t;
	t = ty_resize(&s->c->arena, t, t->size, t->is_signed);
	if (t->edef != d) {
		struct type *e = arena_alloc(&s->c->arena, sizeof(*e));

		*e = *t;
		e->edef = d;
		t = e;
	}
	return t;
}

/* (int8[8])x, (uint8[])x: integer X's bytes as an array (N, when
 * given, must cover them exactly); (uint64)a: an integer array's bytes
 * as an integer of the same size.  N is the cast, T its operand's
 * type. */
struct type *sema_array_cast(struct sema *s, struct node *n, struct type *t)
{
	struct type *el = ty_by_name(n->tyname);
	int k;

	if (!el)
		el = cdecl_type_by_name(s->c, n->tyname);
	if (is_err(t))
		return set(n, &ty_error);
	if (!n->tydim) {	/* an integer from an array */
		if (t->kind != TY_ARRAY || t->of->kind != TY_INT ||
		    t->size != el->size) {
			ERR(s, n->loc, E_TYPE, "cannot cast %s (%d bytes) to %s (%d bytes): an array cast keeps the size",
			    type_name(t), t->size, type_name(el), el->size);
			return set(n, &ty_error);
		}
		n->op = 4;
		return set(n, el);
	}
	if (!el || el->kind != TY_INT) {
		ERR(s, n->loc, E_TYPE, "an array cast needs integer elements, not '%s'",
		    n->tyname);
		return set(n, &ty_error);
	}
	if (!is_int(t)) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to an array", type_name(t));
		return set(n, &ty_error);
	}
	k = n->tydim > 0 ? n->tydim : t->size / el->size;
	if (k * el->size != t->size) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s (%d bytes) to %s[%d] (%d bytes): an array cast keeps the size",
		    type_name(t), t->size, type_name(el), k, k * el->size);
		return set(n, &ty_error);
	}
	n->op = 3;
	return set(n, ty_array(&s->c->arena, el, k));
}
