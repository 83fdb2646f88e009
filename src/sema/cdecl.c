/* cdecl.c - laying out the structs a script defines.
 *
 * Scripts written for bpftrace #include kernel headers or spell out the
 * structs they cast to.  sonde takes kernel types from BTF; a struct
 * the kernel's BTF does not have is laid out here from its definition:
 * integers, pointers, char arrays, nested structs and bitfields, with
 * the x86_64 SysV rules.
 */
#include "sema/cdecl.h"

#include <string.h>

#include "lang/lex.h"

#include "catalog/btf.h"
#include "catalog/kconst.h"

static int align_of(const struct type *t)
{
	switch (t->kind) {
	case TY_INT: return t->size;
	case TY_PTR: return 8;
	case TY_STR: return 1;
	case TY_STRUCT:	/* script structs keep theirs in nelem */
		if (!t->btf_id)
			return t->nelem > 0 ? t->nelem : 1;
		return t->size >= 8 ? 8 : t->size >= 4 ? 4 : t->size >= 2 ? 2 : 1;
	default: return 1;
	}
}

struct type *cdecl_lookup(struct compiler *c, const char *name)
{
	return strmap_get(&c->stype_names, name);
}

struct type *cdecl_type_by_name(struct compiler *c, const char *name)
{
	struct type *t = cdecl_lookup(c, name);

	if (!t && (!strncmp(name, "struct ", 7) || !strncmp(name, "union ", 6)))
		t = btf_type_by_name(c, name);
	return t;
}

bool cdecl_enum(struct compiler *c, const char *name, int64_t *value)
{
	struct node *e = strmap_get(&c->enum_names, name);

	if (e)
		*value = e->cval;
	return e != NULL;
}

bool cdecl_constant(struct compiler *c, const char *name, int64_t *value)
{
	return cdecl_enum(c, name, value) || btf_enum_value(c, name, value) ||
	       kconst_lookup(name, value);
}

/* Room for one more in an array of N pointers, grown by doubling: a
 * generated script may define tens of thousands. */
static void *grow(void *v, int n)
{
	if (n & (n - 1))
		return v;
	return xrealloc(v, sizeof(void *) * (size_t)(n ? 2 * n : 1));
}

/* The type of member M of SELF, NULL when unknown (reported). */
static struct type *member_type(struct compiler *c, struct node *m,
				const struct type *self)
{
	struct type *base = ty_by_name(m->tyname), *t;

	if (!base && (!strncmp(m->tyname, "struct ", 7) ||
		      !strncmp(m->tyname, "union ", 6)))
		base = cdecl_type_by_name(c, m->tyname);
	if (m->tyname_ptr) {
		t = arena_alloc(&c->arena, sizeof(*t));
		t->kind = TY_PTR;
		t->size = 8;
		t->pointee = m->tyname_ptr == 1 ? base : NULL;
		return t;
	}
	if (!base) {
		diag_error(&c->diag, m->loc, E_TYPE, "unknown type '%s'", m->tyname);
		return NULL;
	}
	if (base == self) {
		diag_error(&c->diag, m->loc, E_TYPE,
			   "%s cannot contain itself (a pointer to it can: %s *%s)",
			   self->sname, self->sname, m->name);
		return NULL;
	}
	if (m->a) {
		int64_t v;

		if (!cdecl_constant(c, m->a->name, &v)) {
			diag_error(&c->diag, m->a->loc, E_IDENT,
				   "unknown constant '%s' as an array length",
				   m->a->name);
			return NULL;
		}
		if (v < 0) {
			diag_error(&c->diag, m->a->loc, E_TYPE,
				   "array length %s is negative (%lld)",
				   m->a->name, (long long)v);
			return NULL;
		}
		m->ival = v ? (uint64_t)v : 1;
		m->a = NULL;
	}
	if (m->ival && (m->ival > CDECL_MAX_SIZE ||
			 (uint64_t)base->size * m->ival > CDECL_MAX_SIZE)) {
		diag_error(&c->diag, m->loc, E_LIMIT,
			   "array %s[%llu] is larger than %d bytes", m->name,
			   (unsigned long long)m->ival, CDECL_MAX_SIZE);
		return NULL;
	}
	if (m->ival) {
		if (base->kind == TY_INT && base->size == 1)
			return ty_str(&c->arena, (int)m->ival);
		/* other arrays take room but cannot be read yet */
		t = arena_alloc(&c->arena, sizeof(*t));
		t->kind = TY_VOID;
		t->size = base->size * (int)m->ival;
		t->nelem = align_of(base);	/* carries the alignment */
		return t;
	}
	return base;
}

static int define_struct(struct compiler *c, struct node *d)
{
	struct type *st = arena_alloc(&c->arena, sizeof(*st));
	bool is_union = !strncmp(d->name, "union ", 6);
	int bit = 0, maxalign = 1, size = 0;

	st->kind = TY_STRUCT;
	st->sname = d->name;
	st->members = arena_alloc(&c->arena, sizeof(*st->members) *
				  (size_t)(d->nargs ? d->nargs : 1));
	/* visible to its own pointer members: struct foo *next */
	c->stypes = grow(c->stypes, c->nstypes);
	c->stypes[c->nstypes++] = st;
	strmap_put(&c->stype_names, &c->arena, st->sname, st);
	for (int i = 0; i < d->nargs; i++) {
		struct node *m = d->args[i];
		struct type *t = member_type(c, m, st);
		struct smember *sm = &st->members[st->nmembers++];
		int size_b, align;

		if (!t)
			return -1;
		size_b = t->kind == TY_VOID ? t->size : t->size;
		align = t->kind == TY_VOID ? t->nelem : align_of(t);
		if (align < 1)
			align = 1;
		if (align > maxalign)
			maxalign = align;
		sm->name = m->name;
		sm->ty = t->kind == TY_VOID ? NULL : t;
		if (is_union)
			bit = 0;
		if (m->cval) {
			/* a bitfield stays inside one aligned unit of its type */
			int unit = size_b * 8;

			if (t->kind != TY_INT) {
				diag_error(&c->diag, m->loc, E_TYPE,
					   "a bitfield needs an integer type");
				return -1;
			}
			if (m->cval > unit) {
				diag_error(&c->diag, m->loc, E_TYPE,
					   "bitfield wider than its type");
				return -1;
			}
			if (bit / unit != (bit + (int)m->cval - 1) / unit)
				bit = ALIGN_UP(bit, unit);
			sm->bitoff = bit;
			sm->bitsize = (int)m->cval;
			sm->ty = ty_int(8, false);
			bit += (int)m->cval;
		} else {
			bit = ALIGN_UP(bit, align * 8);
			sm->bitoff = bit;
			bit += size_b * 8;
		}
		if (bit > size * 8)
			size = ALIGN_UP(bit, 8) / 8;
		/* checked at each member, so that BIT cannot overflow */
		if (size > CDECL_MAX_SIZE) {
			diag_error(&c->diag, m->loc, E_LIMIT,
				   "%s is larger than %d bytes", d->name,
				   CDECL_MAX_SIZE);
			return -1;
		}
	}
	st->size = ALIGN_UP(size, maxalign);
	st->nelem = maxalign;
	return 0;
}

/* The value of the enumerator value N: C's integer constant expression
 * over int64 (integers, named constants, the operators), or false after
 * an error. */
static bool value(struct compiler *c, const struct node *n, int64_t *v)
{
	int64_t a, b = 0;
	bool ok;

	switch (n->kind) {
	case N_INT:
		if (n->ival > INT64_MAX)
			break;
		*v = (int64_t)n->ival;
		return true;
	case N_BUILTIN:
		if (cdecl_constant(c, n->name, v))
			return true;
		diag_error(&c->diag, n->loc, E_IDENT,
			   "unknown constant '%s' in an enumerator value", n->name);
		return false;
	case N_UNOP:
		/* -9223372036854775808: the literal alone is out of range */
		if (n->op == T_MINUS && n->a->kind == N_INT &&
		    n->a->ival == (uint64_t)INT64_MAX + 1) {
			*v = INT64_MIN;
			return true;
		}
		if (!value(c, n->a, &a))
			return false;
		switch (n->op) {
		case T_MINUS:
			if (a == INT64_MIN)
				goto range;
			*v = -a;
			return true;
		case T_PLUS: *v = a; return true;
		case T_TILDE: *v = ~a; return true;
		case T_BANG: *v = !a; return true;
		default: goto not_const;
		}
	case N_LAND: case N_LOR: case N_TERNARY: case N_BINOP:
		if (!value(c, n->a, &a) || (n->kind != N_TERNARY && !value(c, n->b, &b)))
			return false;
		if (n->kind == N_TERNARY)
			return value(c, a ? n->b : n->c, v);
		if (n->kind != N_BINOP) {
			*v = n->kind == N_LAND ? a && b : a || b;
			return true;
		}
		ok = true;
		switch (n->op) {
		case T_PLUS: ok = !__builtin_add_overflow(a, b, v); break;
		case T_MINUS: ok = !__builtin_sub_overflow(a, b, v); break;
		case T_STAR: ok = !__builtin_mul_overflow(a, b, v); break;
		case T_SLASH: case T_PERCENT:
			if (!b) {
				diag_error(&c->diag, n->loc, E_TYPE,
					   "division by zero in an enumerator value");
				return false;
			}
			ok = !(a == INT64_MIN && b == -1);
			*v = ok ? (n->op == T_SLASH ? a / b : a % b) : 0;
			break;
		case T_SHL: case T_SHR:
			ok = b >= 0 && b < 64 && (n->op == T_SHR || a >= 0);
			*v = !ok ? 0 : n->op == T_SHL ? (int64_t)((uint64_t)a << b) :
			     a >> b;
			break;
		case T_AMP: *v = a & b; break;
		case T_PIPE: *v = a | b; break;
		case T_CARET: *v = a ^ b; break;
		case T_EQ: *v = a == b; break;
		case T_NE: *v = a != b; break;
		case T_LT: *v = a < b; break;
		case T_GT: *v = a > b; break;
		case T_LE: *v = a <= b; break;
		case T_GE: *v = a >= b; break;
		default: goto not_const;
		}
		if (ok)
			return true;
		goto range;
	default:
		goto not_const;
	}
range:
	diag_error(&c->diag, n->loc, E_TYPE,
		   "enumerator value out of the range of int64");
	return false;
not_const:
	diag_error(&c->diag, n->loc, E_TYPE,
		   "an enumerator value must be an integer constant");
	return false;
}

/* The enumerators of D, valued in order (one more than the previous
 * when not written) and named for what follows: the first definition
 * of a name wins, as a list search found it. */
static int define_enum(struct compiler *c, struct node *d)
{
	int64_t next = 0;
	bool at_max = false;	/* the previous value was INT64_MAX */

	for (int i = 0; i < d->nargs; i++) {
		struct node *m = d->args[i];

		if (m->a) {
			if (!value(c, m->a, &next))
				return -1;
		} else if (at_max) {
			diag_error(&c->diag, m->loc, E_TYPE,
				   "enumerator value out of the range of int64 (one more than the previous one)");
			return -1;
		}
		m->cval = next;
		at_max = next == INT64_MAX;
		if (!at_max)
			next++;
		c->enums = grow(c->enums, c->nenums);
		c->enums[c->nenums++] = m;
		if (!strmap_get(&c->enum_names, m->name))
			strmap_put(&c->enum_names, &c->arena, m->name, m);
	}
	return 0;
}

int cdecl_define(struct compiler *c)
{
	int rc = 0;

	for (struct node *d = c->ast->types; d; d = d->next) {
		if (d->kind == N_ENUMDEF) {
			if (define_enum(c, d))
				rc = -1;
			continue;
		}
		if (cdecl_lookup(c, d->name)) {
			diag_error(&c->diag, d->loc, E_TYPE, "%s is defined twice",
				   d->name);
			rc = -1;
			continue;
		}
		if (define_struct(c, d))
			rc = -1;
	}
	return rc;
}
