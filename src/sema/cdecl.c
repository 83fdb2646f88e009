/* cdecl.c - laying out the C types a script declares (lang/decl.c
 * parses them).
 *
 * Scripts written for bpftrace #include kernel headers or spell out the
 * structs they cast to.  sonde takes kernel types from BTF; a struct
 * the script defines is laid out here from its definition, with the
 * x86-64 SysV rules: integers, pointers, arrays of any dimension (char
 * arrays of one dimension are strings, as bpftrace reads them), nested
 * and anonymous structs and unions, bitfields, enums (4-byte integers)
 * and typedefs.  Names are looked up in the script's own definitions
 * first (a struct named like a kernel type replaces it, as in
 * bpftrace), then in BTF.
 */
#include "sema/cdecl.h"

#include <string.h>

#include "lang/lex.h"

#include "catalog/btf.h"
#include "catalog/kconst.h"

struct type *cdecl_lookup(struct compiler *c, const char *name)
{
	return strmap_get(&c->stype_names, name);
}

struct type *cdecl_type_by_name(struct compiler *c, const char *name)
{
	struct type *t = cdecl_lookup(c, name);

	if (!t)
		t = strmap_get(&c->typedef_names, name);
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

static struct type *define(struct compiler *c, struct node *d);

/* The type a member or typedef names before its '*'s and dimensions;
 * NULL when unknown. */
static struct type *base_type(struct compiler *c, struct node *m)
{
	const char *n = m->tyname;
	struct type *t;

	if (m->a)
		return define(c, m->a);
	t = ty_by_name(n);
	if (t)
		return t;
	if (!strcmp(n, "void"))
		return &ty_void;
	t = strmap_get(&c->typedef_names, n);
	if (t)
		return t;
	t = cdecl_lookup(c, n);
	if (t)
		return t;
	/* the kernel's structs, unions, enums and typedefs */
	return btf_type_by_name(c, n);
}

/* Float and double: the size a member of them takes, unread. */
static struct type *opaque(struct compiler *c, const char *name)
{
	struct type *t;

	if (strcmp(name, "float") && strcmp(name, "double") &&
	    strcmp(name, "long double"))
		return NULL;
	t = arena_alloc(&c->arena, sizeof(*t));
	t->kind = TY_VOID;
	t->size = !strcmp(name, "float") ? 4 : !strcmp(name, "double") ? 8 : 16;
	t->nelem = t->size > 8 ? 16 : t->size;	/* its alignment */
	return t;
}

struct type *cdecl_float(struct compiler *c, const char *name)
{
	return opaque(c, name);
}

/* The array of M's dimensions over T (the last dimension innermost);
 * char[N] is a string of N bytes, as in bpftrace (not unsigned char[N],
 * signed char[N], uint8_t[N]: those are arrays of numbers). */
static struct type *dims(struct compiler *c, struct node *m, struct type *t)
{
	bool chars = !m->tyname_ptr && !strcmp(m->tyname, "char");

	for (int i = m->nargs - 1; i >= 0; i--) {
		uint64_t n = m->args[i]->ival;

		if (t->size && n > (uint64_t)CDECL_MAX_SIZE / (uint64_t)t->size) {
			diag_error(&c->diag, m->loc, E_LIMIT,
				   "array %s is larger than %d bytes",
				   m->name ? m->name : "", CDECL_MAX_SIZE);
			return NULL;
		}
		if (!n) {	/* char data[]: takes no room, cannot be read */
			struct type *z = arena_alloc(&c->arena, sizeof(*z));

			z->kind = TY_VOID;
			z->nelem = ty_align(t);
			t = z;
		} else if (chars && i == m->nargs - 1) {
			t = ty_str(&c->arena, (int)n);
		} else {
			t = ty_array(&c->arena, t, (int)n);
		}
	}
	return t;
}

/* The type of member (or typedef) M of SELF (NULL for a typedef), NULL
 * when unknown (reported). */
static struct type *decl_type(struct compiler *c, struct node *m,
			      const struct type *self)
{
	struct type *base = base_type(c, m), *t;

	if (!base && !m->tyname_ptr)
		base = opaque(c, m->tyname);
	if (m->tyname_ptr) {
		/* a pointer to a type sonde has not seen (struct bar *)
		 * points to nothing it can read, as in C */
		t = ty_ptr_chain(&c->arena, base, m->tyname_ptr);
		return dims(c, m, t);
	}
	if (!base && c->lang_d && (!strncmp(m->tyname, "struct ", 7) ||
				   !strncmp(m->tyname, "union ", 6))) {
		diag_error_d(&c->diag, m->loc, E_TYPE, "D_DECL_INCOMPLETE",
			     "incomplete struct/union/enum %s: %s", m->tyname,
			     m->name ? m->name : "");
		return NULL;
	}
	if (!base) {
		diag_error(&c->diag, m->loc, E_TYPE, "unknown type '%s'", m->tyname);
		return NULL;
	}
	if (base->kind == TY_VOID && !base->size) {
		if (self)
			diag_error(&c->diag, m->loc, E_TYPE,
				   "a member cannot be void");
		else
			diag_error(&c->diag, m->loc, E_TYPE,
				   "typedef %s names void", m->name);
		return NULL;
	}
	if (base == self) {
		diag_error(&c->diag, m->loc, E_TYPE,
			   "%s cannot contain itself (a pointer to it can: %s *%s)",
			   self->sname, self->sname, m->name);
		return NULL;
	}
	return dims(c, m, base);
}

struct type *cdecl_member_type(struct compiler *c, struct node *m)
{
	return decl_type(c, m, NULL);
}

/* Add member NAME of type T at BIT (BITS wide for a bitfield) to ST. */
static struct smember *add_member(struct compiler *c, struct type *st,
				  int *cap, const char *name, struct type *t,
				  int bit, int bits)
{
	return ty_add_member(&c->arena, st, cap, name, t, bit, bits);
}

struct layout {
	struct type *st;
	bool is_union;
	int bit, size, maxalign, cap;
};

/* Place member M of type T (its bit width in M->cval). */
static int place(struct compiler *c, struct layout *lo, struct node *m,
		 struct type *t)
{
	int align = t->kind == TY_VOID ? (t->nelem ? t->nelem : 1) : ty_align(t);

	if (align > lo->maxalign)
		lo->maxalign = align;
	if (lo->is_union)
		lo->bit = 0;
	if (m->cval) {
		/* a bitfield stays inside one aligned unit of its type */
		int unit = t->size * 8;

		if (t->kind != TY_INT && c->lang_d) {
			diag_error_d(&c->diag, m->loc, E_TYPE, "D_DECL_BFTYPE",
				     "invalid type for bit-field: %s",
				     *m->name ? m->name : "(anon)");
			return -1;
		}
		if (t->kind != TY_INT) {
			diag_error(&c->diag, m->loc, E_TYPE,
				   "a bitfield needs an integer type");
			return -1;
		}
		if (m->cval > unit && c->lang_d) {
			diag_error_d(&c->diag, m->loc, E_TYPE, "D_DECL_BFSIZE",
				     "bit-field too big for type: %s", m->name);
			return -1;
		}
		if (m->cval > unit) {
			diag_error(&c->diag, m->loc, E_TYPE,
				   "bitfield wider than its type");
			return -1;
		}
		if (lo->bit / unit != (lo->bit + (int)m->cval - 1) / unit)
			lo->bit = ALIGN_UP(lo->bit, unit);
		add_member(c, lo->st, &lo->cap, m->name, ty_int(8, t->is_signed),
			   lo->bit, (int)m->cval);
		lo->bit += (int)m->cval;
	} else if (!m->name) {
		/* anonymous struct or union: its members are ours */
		lo->bit = ALIGN_UP(lo->bit, align * 8);
		for (int i = 0; i < t->nmembers; i++) {
			struct smember *in = &t->members[i];

			add_member(c, lo->st, &lo->cap, in->name,
				   in->ty ? in->ty : &ty_void,
				   lo->bit + in->bitoff, in->bitsize);
		}
		lo->bit += t->size * 8;
	} else {
		lo->bit = ALIGN_UP(lo->bit, align * 8);
		add_member(c, lo->st, &lo->cap, m->name, t, lo->bit, 0);
		lo->bit += t->size * 8;
	}
	if (lo->bit > lo->size * 8)
		lo->size = ALIGN_UP(lo->bit, 8) / 8;
	/* checked at each member, so that the bit count cannot overflow */
	if (lo->size > CDECL_MAX_SIZE) {
		diag_error(&c->diag, m->loc, E_LIMIT, "%s is larger than %d bytes",
			   lo->st->sname, CDECL_MAX_SIZE);
		return -1;
	}
	return 0;
}

static struct type *define_struct(struct compiler *c, struct node *d)
{
	struct type *st = arena_alloc(&c->arena, sizeof(*st));
	struct layout lo = { st, !strncmp(d->name, "union ", 6), 0, 0, 1, 0 };

	st->kind = TY_STRUCT;
	st->sname = d->name;
	/* visible to its own pointer members: struct foo *next */
	c->stypes = grow(c->stypes, c->nstypes);
	c->stypes[c->nstypes++] = st;
	strmap_put(&c->stype_names, &c->arena, st->sname, st);
	for (int i = 0; i < d->nargs; i++) {
		struct node *m = d->args[i];
		struct type *t = decl_type(c, m, st);

		if (!t || place(c, &lo, m, t))
			return NULL;
	}
	st->size = ALIGN_UP(lo.size, lo.maxalign);
	st->nelem = lo.maxalign;
	return st;
}

/* An enum's enumerators become constants; the type is a 4-byte int. */
/* An enum: a 4-byte integer whose values print by their enumerators'
 * names (0.26), which name constants. */
static struct type *define_enum(struct compiler *c, struct node *d)
{
	struct enum_def *e = arena_alloc(&c->arena, sizeof(*e));
	struct type *t = arena_alloc(&c->arena, sizeof(*t));

	e->name = d->name;
	e->n = d->nargs;
	e->names = arena_alloc(&c->arena, sizeof(*e->names) * (size_t)(d->nargs + 1));
	e->vals = arena_alloc(&c->arena, sizeof(*e->vals) * (size_t)(d->nargs + 1));
	*t = ty_s32;
	t->edef = e;
	for (int i = 0; i < d->nargs; i++) {
		e->names[i] = d->args[i]->name;
		e->vals[i] = d->args[i]->cval;
		c->enums = grow(c->enums, c->nenums);
		c->enums[c->nenums++] = d->args[i];
		/* the first definition wins, as the list search found it */
		if (!strmap_get(&c->enum_names, d->args[i]->name)) {
			strmap_put(&c->enum_names, &c->arena, d->args[i]->name,
				   d->args[i]);
			strmap_put(&c->enum_defs, &c->arena, d->args[i]->name, e);
		}
	}
	if (d->name && !cdecl_lookup(c, d->name))
		strmap_put(&c->stype_names, &c->arena, d->name, t);
	return t;
}

/* Define D (a struct, union or enum written in place or at the top):
 * its type, or NULL after an error. */
static struct type *define(struct compiler *c, struct node *d)
{
	struct type *t = d->name ? cdecl_lookup(c, d->name) : NULL;

	if (d->kind == N_ENUMDEF)
		return define_enum(c, d);
	if (t && t->kind == TY_STRUCT && d->extra == t)
		return t;	/* defined already: a typedef of it */
	if (t) {
		diag_error(&c->diag, d->loc, E_TYPE, "%s is defined twice",
			   d->name);
		return NULL;
	}
	t = define_struct(c, d);
	d->extra = t;
	return t;
}

/* typedef TYPE NAME: NAME stands for TYPE from here on. */
static int define_typedef(struct compiler *c, struct node *d)
{
	struct type *t = decl_type(c, d, NULL);

	if (!t)
		return -1;
	strmap_put(&c->typedef_names, &c->arena, d->name, t);
	return 0;
}

int cdecl_define(struct compiler *c)
{
	int rc = 0;

	for (struct node *d = c->ast->types; d; d = d->next) {
		if (d->kind == N_TYPEDEF) {
			if (define_typedef(c, d))
				rc = -1;
			continue;
		}
		if (!d->name)	/* struct foo; */
			continue;
		if (!define(c, d))
			rc = -1;
	}
	return rc;
}
