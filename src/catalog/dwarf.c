/* dwarf.c - functions' parameters from DWARF, through elfutils' libdwfl
 * (which finds the debug information in the file, or in a detached
 * file by build id under /usr/lib/debug/.build-id/, or by
 * .gnu_debuglink beside the file, in its .debug/ and under
 * /usr/lib/debug, and reads compressed sections and dwz's shared
 * files) and libdw.
 *
 * A parameter's C type becomes a sonde type as BTF's do in btf.c:
 * integers and enums, pointers (keeping what they point to), and
 * structs and unions as the script's own structs are (cdecl.c): a
 * TY_STRUCT without a BTF id whose member list is complete, so that
 * sema, cg and the printers need nothing new.  Structs are converted
 * whole, members and what their pointers point to, once per file; a
 * budget bounds a huge type graph (past it, structs have no members).
 *
 * Where a parameter is at the function's entry: the x86-64 SysV calling
 * convention, computed from the types (integers and pointers in rdi,
 * rsi, rdx, rcx, r8, r9, then on the stack; floats in xmm registers,
 * which do not count against those; structs of up to 16 bytes in one
 * or two registers by the class of each eightbyte, larger ones on the
 * stack; a hidden first pointer when the function returns a large
 * struct), unless the parameter's DWARF location at the entry says
 * otherwise: optimised code (a GCC clone .isra or .constprop with
 * fewer parameters) is then read where the compiler put it, and a
 * parameter whose location list has no entry there is optimized out.
 * Locations of unoptimised code (gcc -O0) name the frame slot the
 * prologue will store the register into, not valid yet at the entry:
 * those are left to the convention.  So is a parameter without any
 * location, except in a clone.
 */
#include "catalog/dwarf.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch.h"

/* Structs converted per file at most; a C program has hundreds. */
#define STRUCT_BUDGET 20000
/* The largest array or struct value converted (as cdecl.h's limit). */
#define MAX_VALUE (1 << 20)

struct dfile {
	const char *path;
	Dwfl_Callbacks cb;
	char *dpath;		/* the debuginfo path: NULL, libdwfl's own */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf *dw;
	Dwarf_Addr bias;
	int err;		/* 0, or why DWARF cannot be read */
	struct strmap funcs;	/* "ADDR" -> struct dwarf_func (nparams
				 * -1: not described) */
	struct strmap types;	/* "DWARF:OFFSET" -> struct type, or NONE */
	struct strmap defs;	/* "struct NAME" -> a definition's offset */
	bool defs_read;
	int budget;
	struct dfile *next;
};

struct dwarf_cache {
	struct dfile *files;
};

static const int none_marker;
#define NONE ((void *)&none_marker)

static void close_all(struct compiler *c)
{
	for (struct dfile *f = c->dwarf ? c->dwarf->files : NULL; f; f = f->next)
		if (f->dwfl)
			dwfl_end(f->dwfl);
	c->dwarf = NULL;
}

static struct dfile *open_file(struct compiler *c, const char *path)
{
	struct dfile *f;

	if (!c->dwarf) {
		c->dwarf = arena_alloc(&c->arena, sizeof(*c->dwarf));
		c->dwarf_close = close_all;
	}
	for (f = c->dwarf->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = arena_alloc(&c->arena, sizeof(*f));
	f->path = arena_strdup(&c->arena, path);
	f->cb.find_elf = dwfl_build_id_find_elf;
	f->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	f->cb.section_address = dwfl_offline_section_address;
	f->cb.debuginfo_path = &f->dpath;
	f->budget = STRUCT_BUDGET;
	f->next = c->dwarf->files;
	c->dwarf->files = f;
	f->dwfl = dwfl_begin(&f->cb);
	if (!f->dwfl) {
		f->err = -ENOMEM;
		return f;
	}
	f->mod = dwfl_report_offline(f->dwfl, path, path, -1);
	if (!f->mod || dwfl_report_end(f->dwfl, NULL, NULL)) {
		f->err = -ENOEXEC;
		f->mod = NULL;
		return f;
	}
	f->dw = dwfl_module_getdwarf(f->mod, &f->bias);
	if (!f->dw)
		f->err = -ENODATA;
	return f;
}

Dwfl_Module *dwarf_module(struct compiler *c, const char *path, int *err)
{
	struct dfile *f = open_file(c, path);

	*err = f->err;
	return f->err ? NULL : f->mod;
}

const char *dwarf_debug_file_hint(struct compiler *c, const char *path)
{
	struct dfile *f = open_file(c, path);
	const unsigned char *id;
	GElf_Addr va;
	char hex[2 * 64 + 1];
	int n;

	if (!f->mod)
		return NULL;
	n = dwfl_module_build_id(f->mod, &id, &va);
	if (n < 2 || n > 64)
		return NULL;
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	return arena_printf(&c->arena, "/usr/lib/debug/.build-id/%.2s/%s.debug",
			    hex, hex + 2);
}

/* ---- small readers ---- */

static bool type_of(Dwarf_Die *d, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_formref_die(dwarf_attr_integrate(d, DW_AT_type, &a), out) != NULL;
}

static int64_t udata(Dwarf_Die *d, unsigned name, int64_t dflt)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!dwarf_attr_integrate(d, name, &a) || dwarf_formudata(&a, &w))
		return dflt;
	return (int64_t)w;
}

static int encoding(Dwarf_Die *d)
{
	return (int)udata(d, DW_AT_encoding, -1);
}

static int64_t size_of(Dwarf_Die *d)
{
	Dwarf_Word w;

	return dwarf_aggregate_size(d, &w) ? -1 : (int64_t)w;
}

static bool is_struct(int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_union_type;
}

/* A C++ class passed and returned by reference (a non-trivial copy). */
static bool by_reference(Dwarf_Die *d)
{
	return udata(d, DW_AT_calling_convention, 0) == DW_CC_pass_by_reference;
}

/* The byte offset of member M in its struct (0 in a union). */
static int64_t member_offset(Dwarf_Die *m)
{
	Dwarf_Attribute a;
	Dwarf_Word w;
	Dwarf_Op *ops;
	size_t n;

	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return 0;
	if (!dwarf_formudata(&a, &w))
		return (int64_t)w;
	/* DWARF 2's form: an expression DW_OP_plus_uconst N */
	if (!dwarf_getlocation(&a, &ops, &n) && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst)
		return (int64_t)ops[0].number;
	return -1;
}

/* The bit offset of member M from its struct's start, and its width in
 * *BITS (0: not a bitfield). */
static int64_t member_bits(Dwarf_Die *m, int *bits)
{
	int64_t off = member_offset(m), bo, storage;
	int bs = dwarf_bitsize(m);

	*bits = bs > 0 ? bs : 0;
	if (off < 0 && !dwarf_hasattr(m, DW_AT_data_bit_offset))
		return -1;
	if (!*bits)
		return off * 8;
	bo = udata(m, DW_AT_data_bit_offset, -1);
	if (bo >= 0)
		return bo;
	/* DWARF 2 and 3: DW_AT_bit_offset counts from the most
	 * significant bit of the storage unit */
	bo = udata(m, DW_AT_bit_offset, 0);
	storage = udata(m, DW_AT_byte_size, -1);
	if (storage < 0) {
		Dwarf_Die t;

		storage = type_of(m, &t) ? size_of(&t) : 0;
	}
	return off * 8 + storage * 8 - bo - *bits;
}

/* The alignment C gives DWARF type T (x86-64). */
static int die_align(Dwarf_Die *t, int depth)
{
	Dwarf_Die d, m, mt;
	int64_t al = udata(t, DW_AT_alignment, 0);
	int best = 1;

	if (al > 0)
		return (int)al;
	if (depth > 16 || dwarf_peel_type(t, &d))
		return 1;
	switch (dwarf_tag(&d)) {
	case DW_TAG_array_type:
		return type_of(&d, &mt) ? die_align(&mt, depth + 1) : 1;
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_child(&d, &m))
			return 1;
		do {
			int a;

			if (dwarf_tag(&m) != DW_TAG_member || !type_of(&m, &mt))
				continue;
			a = die_align(&mt, depth + 1);
			if (a > best)
				best = a;
		} while (!dwarf_siblingof(&m, &m));
		al = size_of(&d);
		return al > 0 && al % best ? 1 : best;	/* packed */
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return 8;
	default:
		al = size_of(&d);
		return al >= 16 ? 16 : al >= 8 ? 8 : al >= 4 ? 4 : al >= 2 ? 2 : 1;
	}
}

/* ---- C type names, as bpftrace 0.17 prints them (-lv) ---- */

static const char *cname(struct arena *a, Dwarf_Die *t, int depth);

static const char *inner_name(struct arena *a, Dwarf_Die *t, int depth)
{
	Dwarf_Die in;

	return type_of(t, &in) ? cname(a, &in, depth + 1) : "void";
}

/* The dimensions of array type T: "[3][4]", "[]" for one unknown. */
static const char *dims(struct arena *a, Dwarf_Die *t)
{
	const char *s = "";
	Dwarf_Die r;

	if (dwarf_child(t, &r))
		return "[]";
	do {
		int64_t n = udata(&r, DW_AT_count, -1);

		if (dwarf_tag(&r) != DW_TAG_subrange_type)
			continue;
		if (n < 0 && dwarf_hasattr(&r, DW_AT_upper_bound))
			n = udata(&r, DW_AT_upper_bound, -2) + 1;
		s = n >= 0 ? arena_printf(a, "%s[%lld]", s, (long long)n) :
			     arena_printf(a, "%s[]", s);
	} while (!dwarf_siblingof(&r, &r));
	return s;
}

/* The parameter list of function type F: "(int, char*)", "(void)" for
 * a C prototype without parameters. */
static const char *fn_params(struct arena *a, Dwarf_Die *f, int depth)
{
	const char *s = "(";
	Dwarf_Die p, pt;
	Dwarf_Attribute at;
	bool proto = false;
	int n = 0;

	if (!dwarf_child(f, &p)) {
		do {
			if (dwarf_tag(&p) == DW_TAG_unspecified_parameters)
				s = arena_printf(a, "%s%s...", s, n++ ? ", " : "");
			else if (dwarf_tag(&p) == DW_TAG_formal_parameter)
				s = arena_printf(a, "%s%s%s", s, n++ ? ", " : "",
						 type_of(&p, &pt) ?
						 cname(a, &pt, depth + 1) : "void");
		} while (!dwarf_siblingof(&p, &p));
	}
	if (!dwarf_attr(f, DW_AT_prototyped, &at) || dwarf_formflag(&at, &proto))
		proto = false;
	return arena_printf(a, "%s%s)", s, !n && proto ? "void" : "");
}

/* A pointer type T whose chain of pointers (QUALS: "*", "* const*")
 * ends at a function or an array: C's declarator, "int (*)(long)",
 * "char (*)[3]", "int (**)(void)"; NULL when it ends elsewhere. */
static const char *inside_out(struct arena *a, Dwarf_Die *t, int depth)
{
	const char *stars = "";
	Dwarf_Die d = *t, in;

	for (int i = 0; i < 8; i++) {
		int tag = dwarf_tag(&d);

		if (tag == DW_TAG_pointer_type)
			stars = arena_printf(a, "*%s", stars);
		else if (tag == DW_TAG_const_type)
			stars = arena_printf(a, "* const%s", stars + 1);
		else
			return NULL;
		if (!type_of(&d, &in))
			return NULL;
		if (dwarf_tag(&in) == DW_TAG_subroutine_type)
			return arena_printf(a, "%s (%s)%s", inner_name(a, &in, depth),
					    stars, fn_params(a, &in, depth));
		if (dwarf_tag(&in) == DW_TAG_array_type)
			return arena_printf(a, "%s (%s)%s", inner_name(a, &in, depth),
					    stars, dims(a, &in));
		d = in;
	}
	return NULL;
}

static const char *cname(struct arena *a, Dwarf_Die *t, int depth)
{
	const char *name = dwarf_diename(t), *in;
	Dwarf_Die d;
	int tag = dwarf_tag(t);

	if (depth > 16)
		return "...";
	switch (tag) {
	case DW_TAG_base_type: case DW_TAG_typedef:
		return name ? name : "<unknown type>";
	case DW_TAG_pointer_type:
		if ((in = inside_out(a, t, depth)))
			return in;
		return arena_printf(a, "%s*", inner_name(a, t, depth));
	case DW_TAG_reference_type:
		return arena_printf(a, "%s&", inner_name(a, t, depth));
	case DW_TAG_rvalue_reference_type:
		return arena_printf(a, "%s&&", inner_name(a, t, depth));
	case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type: {
		const char *q = tag == DW_TAG_const_type ? "const" :
				tag == DW_TAG_volatile_type ? "volatile" :
				tag == DW_TAG_restrict_type ? "restrict" : "_Atomic";

		in = inner_name(a, t, depth);
		if (type_of(t, &d) && dwarf_tag(&d) == DW_TAG_pointer_type)
			return arena_printf(a, "%s %s", in, q);
		return arena_printf(a, "%s %s", q, in);
	}
	case DW_TAG_structure_type: case DW_TAG_union_type:
	case DW_TAG_enumeration_type: case DW_TAG_class_type:
		return arena_printf(a, "%s %s",
				    tag == DW_TAG_structure_type ? "struct" :
				    tag == DW_TAG_union_type ? "union" :
				    tag == DW_TAG_class_type ? "class" : "enum",
				    name ? name : "<anonymous>");
	case DW_TAG_array_type:
		return arena_printf(a, "%s%s", inner_name(a, t, depth), dims(a, t));
	default:
		return "<unknown type>";
	}
}

/* ---- DWARF types to sonde's ---- */

static struct type *conv(struct compiler *c, struct dfile *f, Dwarf_Die *t,
			 const char *tdname, int depth);

static const char *type_key(char *buf, size_t n, Dwarf_Die *t)
{
	snprintf(buf, n, "%p:%llx", (void *)dwarf_cu_getdwarf(t->cu),
		 (unsigned long long)dwarf_dieoffset(t));
	return buf;
}

static void cache_put(struct compiler *c, struct dfile *f, Dwarf_Die *t,
		      struct type *ty)
{
	char key[64];

	type_key(key, sizeof(key), t);
	strmap_put(&f->types, &c->arena, arena_strdup(&c->arena, key),
		   ty ? (void *)ty : NONE);
}

/* Every struct and union defined at the top of a unit, by name, for a
 * pointer whose unit only declares its target (struct foo;). */
static void read_defs(struct compiler *c, struct dfile *f)
{
	Dwarf_Die *cu = NULL, d;
	Dwarf_Addr b;

	f->defs_read = true;
	while ((cu = dwfl_module_nextcu(f->mod, cu, &b))) {
		if (dwarf_child(cu, &d))
			continue;
		do {
			int tag = dwarf_tag(&d);
			const char *name = dwarf_diename(&d), *key;
			Dwarf_Off *off;

			if (!is_struct(tag) || !name ||
			    dwarf_hasattr(&d, DW_AT_declaration))
				continue;
			key = arena_printf(&c->arena, "%s %s",
					   tag == DW_TAG_union_type ? "union" :
					   "struct", name);
			if (strmap_get(&f->defs, key))
				continue;
			off = arena_alloc(&c->arena, sizeof(*off));
			*off = dwarf_dieoffset(&d);
			strmap_put(&f->defs, &c->arena, key, off);
		} while (!dwarf_siblingof(&d, &d));
	}
}

/* Add member NAME to ST. */
static void add_member(struct compiler *c, struct type *st, int *cap,
		       const char *name, struct type *ty, int64_t bit, int bits)
{
	ty_add_member(&c->arena, st, cap, name, ty, (int)bit, bits);
}

static void struct_members(struct compiler *c, struct dfile *f,
			   struct type *st, Dwarf_Die *d, int depth)
{
	Dwarf_Die m, mt;
	int cap = 0;

	if (dwarf_child(d, &m))
		return;
	do {
		const char *name = dwarf_diename(&m);
		int64_t bit;
		int bits;
		struct type *ty;

		if (dwarf_tag(&m) != DW_TAG_member ||
		    dwarf_hasattr(&m, DW_AT_external) ||
		    dwarf_hasattr(&m, DW_AT_declaration) || !type_of(&m, &mt))
			continue;
		bit = member_bits(&m, &bits);
		if (bit < 0 || bit >= (int64_t)MAX_VALUE * 8)
			continue;
		ty = bits ? ty_int(8, false) : conv(c, f, &mt, NULL, depth + 1);
		if (!name && !bits && ty && ty->kind == TY_STRUCT) {
			/* an anonymous struct or union: its members are ours */
			for (int i = 0; i < ty->nmembers; i++)
				add_member(c, st, &cap, ty->members[i].name,
					   ty->members[i].ty,
					   bit + ty->members[i].bitoff,
					   ty->members[i].bitsize);
			continue;
		}
		if (name)
			add_member(c, st, &cap, arena_strdup(&c->arena, name),
				   ty, bit, bits);
	} while (!dwarf_siblingof(&m, &m));
}

static struct type *struct_type(struct compiler *c, struct dfile *f,
				Dwarf_Die *t, const char *tdname, int depth)
{
	int tag = dwarf_tag(t);
	const char *name = dwarf_diename(t);
	const char *kw = tag == DW_TAG_union_type ? "union" : "struct";
	Dwarf_Die def = *t;
	struct type *st;
	int64_t size;

	/* a struct the script defines wins, as in bpftrace, whose scripts
	 * had to define the program's structs themselves */
	if (name && (st = strmap_get(&c->stype_names,
				     arena_printf(&c->arena, "%s %s", kw, name))))
		return st;
	if (dwarf_hasattr(t, DW_AT_declaration) && name) {
		Dwarf_Off *off;

		if (!f->defs_read)
			read_defs(c, f);
		off = strmap_get(&f->defs, arena_printf(&c->arena, "%s %s", kw, name));
		if (off && dwarf_offdie(f->dw, *off, &def)) {
			char key[64];
			struct type *done = strmap_get(&f->types,
						       type_key(key, sizeof(key), &def));

			if (done)
				return done == NONE ? NULL : done;
		}
	}
	st = arena_alloc(&c->arena, sizeof(*st));
	st->kind = TY_STRUCT;
	st->user = true;
	st->sname = name ? arena_printf(&c->arena, "%s %s", kw, name) :
		    tdname ? arena_strdup(&c->arena, tdname) :
		    arena_printf(&c->arena, "%s (anonymous)", kw);
	size = dwarf_hasattr(&def, DW_AT_declaration) ? 0 : size_of(&def);
	st->size = size > 0 && size <= MAX_VALUE ? (int)size : 0;
	st->nelem = die_align(&def, 0);
	/* visible to its own members' pointers (struct node *next) */
	cache_put(c, f, t, st);
	if (def.addr != t->addr)
		cache_put(c, f, &def, st);
	if (st->size && f->budget-- > 0)
		struct_members(c, f, st, &def, depth);
	return st;
}

/* OF[N]... of array type T; char[N] is a string, as in btf.c. */
static struct type *array_type(struct compiler *c, struct dfile *f,
			       Dwarf_Die *t, int depth)
{
	int64_t dims[8];
	int nd = 0;
	Dwarf_Die s, et, pe;
	struct type *ty;

	if (!type_of(t, &et) || dwarf_child(t, &s))
		return NULL;
	do {
		int64_t n;

		if (dwarf_tag(&s) != DW_TAG_subrange_type)
			continue;
		n = udata(&s, DW_AT_count, -1);
		if (n < 0 && dwarf_hasattr(&s, DW_AT_upper_bound))
			n = udata(&s, DW_AT_upper_bound, -2) + 1;
		if (n <= 0 || nd == 8)
			return NULL;	/* a flexible array member */
		dims[nd++] = n;
	} while (!dwarf_siblingof(&s, &s));
	if (!nd)
		return NULL;
	if (!dwarf_peel_type(&et, &pe) && dwarf_tag(&pe) == DW_TAG_base_type &&
	    size_of(&pe) == 1 && dwarf_diename(&pe) &&
	    !strcmp(dwarf_diename(&pe), "char")) {
		if (dims[nd - 1] > MAX_VALUE)
			return NULL;
		ty = ty_str(&c->arena, (int)dims[--nd]);
	} else {
		ty = conv(c, f, &et, NULL, depth + 1);
	}
	while (nd-- > 0) {
		if (!ty || ty->kind == TY_VOID || !ty->size ||
		    dims[nd] > MAX_VALUE / ty->size)
			return NULL;
		ty = ty_array(&c->arena, ty, (int)dims[nd]);
	}
	return ty;
}

static struct type *int_type(Dwarf_Die *t)
{
	int64_t size = size_of(t);
	int enc = encoding(t);

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return NULL;
	switch (enc) {
	case DW_ATE_signed: case DW_ATE_signed_char:
		return ty_int((int)size, true);
	case DW_ATE_boolean:
		return size == 1 ? &ty_bool : ty_int((int)size, false);
	case DW_ATE_unsigned: case DW_ATE_unsigned_char: case DW_ATE_UTF:
		return ty_int((int)size, false);
	default:
		return NULL;	/* floats, decimals */
	}
}

/* Enum T: integer type IT whose values print by T's enumerators. */
static struct type *enum_type(struct compiler *c, Dwarf_Die *t,
			      struct type *it)
{
	struct type *ty = arena_alloc(&c->arena, sizeof(*ty));
	struct enum_def *d = arena_alloc(&c->arena, sizeof(*d));
	const char *name = dwarf_diename(t);
	Dwarf_Die e;
	int n = 0;

	*ty = *it;
	ty->edef = d;
	d->name = name ? arena_printf(&c->arena, "enum %s", name) : NULL;
	for (int ok = !dwarf_child(t, &e); ok; ok = !dwarf_siblingof(&e, &e))
		n++;
	d->names = arena_alloc(&c->arena, sizeof(*d->names) * (size_t)(n + 1));
	d->vals = arena_alloc(&c->arena, sizeof(*d->vals) * (size_t)(n + 1));
	for (int ok = !dwarf_child(t, &e); ok; ok = !dwarf_siblingof(&e, &e)) {
		Dwarf_Attribute a;
		Dwarf_Sword v;

		if (dwarf_tag(&e) == DW_TAG_enumerator && dwarf_diename(&e) &&
		    dwarf_attr(&e, DW_AT_const_value, &a) &&
		    !dwarf_formsdata(&a, &v)) {
			d->names[d->n] = arena_strdup(&c->arena, dwarf_diename(&e));
			d->vals[d->n++] = (int64_t)v;
		}
	}
	return ty;
}

static struct type *pointer_type(struct compiler *c, struct dfile *f,
				 Dwarf_Die *t, int depth)
{
	struct type *p = arena_alloc(&c->arena, sizeof(*p));
	Dwarf_Die in, pe;

	p->kind = TY_PTR;
	p->size = 8;
	p->user = true;
	if (type_of(t, &in) && !dwarf_peel_type(&in, &pe)) {
		int tag = dwarf_tag(&pe);

		if (is_struct(tag) || tag == DW_TAG_base_type ||
		    tag == DW_TAG_enumeration_type || tag == DW_TAG_pointer_type) {
			struct type *to = conv(c, f, &in, NULL, depth + 1);

			p->pointee = to && to->kind != TY_VOID ? to : NULL;
		}
	}
	return p;
}

/* Sonde's type for DWARF type T (TDNAME: the typedef that named it),
 * &ty_void for void, NULL when sonde cannot represent it. */
static struct type *conv(struct compiler *c, struct dfile *f, Dwarf_Die *t,
			 const char *tdname, int depth)
{
	char key[64];
	struct type *ty;
	Dwarf_Die in;

	if (depth > 64)
		return NULL;
	ty = strmap_get(&f->types, type_key(key, sizeof(key), t));
	if (ty)
		return ty == NONE ? NULL : ty;
	switch (dwarf_tag(t)) {
	case DW_TAG_typedef:
		return type_of(t, &in) ? conv(c, f, &in, dwarf_diename(t), depth + 1)
				       : &ty_void;
	case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type:
		return type_of(t, &in) ? conv(c, f, &in, tdname, depth + 1) : &ty_void;
	case DW_TAG_base_type:
		return int_type(t);
	case DW_TAG_enumeration_type: {
		int64_t size = size_of(t);
		bool sign = type_of(t, &in) && !dwarf_peel_type(&in, &in) &&
			    (encoding(&in) == DW_ATE_signed ||
			     encoding(&in) == DW_ATE_signed_char);

		if (size != 1 && size != 2 && size != 4 && size != 8)
			return NULL;
		ty = enum_type(c, t, ty_int((int)size, sign));
		cache_put(c, f, t, ty);
		return ty;
	}
	case DW_TAG_pointer_type: case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return pointer_type(c, f, t, depth);
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type:
		return struct_type(c, f, t, tdname, depth);
	case DW_TAG_array_type:
		ty = array_type(c, f, t, depth);
		cache_put(c, f, t, ty);
		return ty;
	default:
		return NULL;
	}
}

/* ---- the calling convention (x86-64 SysV psABI, 3.2.3) ---- */

enum { CL_NONE, CL_INT, CL_SSE, CL_MEM };

static void merge(int *slot, int cl)
{
	if (*slot == cl || cl == CL_NONE)
		return;
	if (*slot == CL_NONE)
		*slot = cl;
	else if (*slot == CL_MEM || cl == CL_MEM)
		*slot = CL_MEM;
	else
		*slot = CL_INT;
}

static void mark(int cl[2], int64_t off, int64_t size, int class)
{
	for (int64_t b = off / 8; b <= (off + size - 1) / 8 && b < 2; b++)
		merge(&cl[b], class);
}

/* The classes of the eightbytes of type T placed at byte OFF. */
static void classify(Dwarf_Die *t, int64_t off, int cl[2], int depth)
{
	Dwarf_Die d, m, mt;
	int64_t size;

	if (depth > 16 || dwarf_peel_type(t, &d)) {
		cl[0] = cl[1] = CL_MEM;
		return;
	}
	size = size_of(&d);
	if (size <= 0)
		return;
	switch (dwarf_tag(&d)) {
	case DW_TAG_base_type: {
		int enc = encoding(&d);

		if (enc == DW_ATE_float && size > 8)	/* long double: x87 */
			mark(cl, off, size, CL_MEM);
		else if (enc == DW_ATE_float || enc == DW_ATE_complex_float)
			mark(cl, off, size, CL_SSE);
		else
			mark(cl, off, size, CL_INT);
		return;
	}
	case DW_TAG_structure_type: case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (by_reference(&d)) {
			cl[0] = cl[1] = CL_MEM;
			return;
		}
		if (dwarf_child(&d, &m))
			return;
		do {
			int bits;
			int64_t bit;

			if (dwarf_tag(&m) != DW_TAG_member ||
			    dwarf_hasattr(&m, DW_AT_external) || !type_of(&m, &mt))
				continue;
			bit = member_bits(&m, &bits);
			if (bit < 0)
				continue;
			if (bits)
				mark(cl, off + bit / 8, (bit % 8 + bits + 7) / 8, CL_INT);
			else
				classify(&mt, off + bit / 8, cl, depth + 1);
		} while (!dwarf_siblingof(&m, &m));
		return;
	case DW_TAG_array_type: {
		int64_t es;

		if (!type_of(&d, &mt) || (es = size_of(&mt)) <= 0)
			return;
		for (int64_t i = 0; i * es < size && off + i * es < 16; i++)
			classify(&mt, off + i * es, cl, depth + 1);
		return;
	}
	default:	/* pointers, references, enums */
		mark(cl, off, size, CL_INT);
		return;
	}
}

struct abi {
	int ni;			/* integer registers taken */
	int ns;			/* SSE registers taken */
	int64_t so;		/* the next stack argument's offset from sp */
};

/* Where the calling convention puts a parameter of type T. */
static void abi_place(struct abi *st, Dwarf_Die *t, struct dwarf_param *p)
{
	Dwarf_Die d;
	int64_t size = dwarf_peel_type(t, &d) ? -1 : size_of(&d);
	int cl[2] = { CL_NONE, CL_NONE }, nint = 0, nsse = 0, n8;
	bool mem = size > 16;

	if (size <= 0) {
		p->why = "has no size";
		return;
	}
	n8 = (int)(size + 7) / 8;
	if (!mem)
		classify(&d, 0, cl, 0);
	for (int i = 0; i < n8 && !mem; i++) {
		if (cl[i] == CL_MEM)
			mem = true;
		else if (cl[i] == CL_SSE)
			nsse++;
		else
			nint++;
	}
	if (is_struct(dwarf_tag(&d)) && by_reference(&d)) {
		p->why = "is passed by reference (a C++ class with a non-trivial copy)";
		if (st->ni < 6)
			st->ni++;
		else
			st->so += 8;
		return;
	}
	if (mem || st->ni + nint > 6 || st->ns + nsse > 8) {
		int64_t al = die_align(&d, 0) > 8 ? 16 : 8;

		st->so = (st->so + al - 1) / al * al;
		p->piece[0] = (struct dwarf_piece){ DP_STACK, (int)size, -1, st->so };
		p->npieces = 1;
		st->so += (size + 7) / 8 * 8;
		return;
	}
	for (int i = 0; i < n8; i++) {
		if (cl[i] == CL_SSE) {
			st->ns++;
			p->why = "is passed in an SSE register (xmm), which a uprobe cannot read";
			continue;
		}
		p->piece[p->npieces++] = (struct dwarf_piece){
			DP_REG, (int)(size - 8 * i > 8 ? 8 : size - 8 * i),
			pt_regs_arg(st->ni++), 0 };
	}
	if (p->why)
		p->npieces = 0;
}

/* ---- DWARF locations at the entry ---- */

/* Does FN's frame base stand for the canonical frame address (gcc's
 * DW_OP_call_frame_cfa), which at the entry is sp + 8? */
static bool cfa_frame(Dwarf_Die *fn)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	return dwarf_attr(fn, DW_AT_frame_base, &a) &&
	       !dwarf_getlocation(&a, &ops, &n) && n == 1 &&
	       ops[0].atom == DW_OP_call_frame_cfa;
}

/* The register DW_OP_entry_value's block names (its value at the
 * entry is the register's), or -1. */
static int entry_reg(Dwarf_Attribute *a, const Dwarf_Op *op)
{
	Dwarf_Attribute sub;
	Dwarf_Op *ops;
	size_t n;

	if (dwarf_getlocation_attr(a, op, &sub) ||
	    dwarf_getlocation(&sub, &ops, &n) || n != 1)
		return -1;
	if (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31)
		return ops[0].atom - DW_OP_reg0;
	return ops[0].atom == DW_OP_regx ? (int)ops[0].number : -1;
}

/* One simple location at OPS[*I] into *PC (its size unset); false if
 * it is none sonde reads at the entry.  LIST: the expression came from
 * a location list entry that covers the entry, so it holds there. */
static bool simple_loc(Dwarf_Die *fn, Dwarf_Attribute *a, Dwarf_Op *ops,
		       size_t n, size_t *i, bool list, struct dwarf_piece *pc)
{
	Dwarf_Op *o = &ops[*i];
	int reg = -1;

	if (o->atom >= DW_OP_reg0 && o->atom <= DW_OP_reg31)
		reg = o->atom - DW_OP_reg0;
	else if (o->atom == DW_OP_regx)
		reg = (int)o->number;
	else if ((o->atom == DW_OP_entry_value || o->atom == DW_OP_GNU_entry_value) &&
		 *i + 1 < n && ops[*i + 1].atom == DW_OP_stack_value) {
		reg = entry_reg(a, o);
		++*i;
		if (reg < 0)
			return false;
	}
	if (reg >= 0) {
		*pc = (struct dwarf_piece){ DP_REG, 0, pt_regs_dwarf(reg), 0 };
		return pc->reg >= 0;
	}
	if (o->atom == DW_OP_fbreg && cfa_frame(fn)) {
		/* gcc -O0 says the frame slot the prologue fills, below
		 * the return address: not yet valid at the entry */
		if (!list && (int64_t)o->number < 0)
			return false;
		*pc = (struct dwarf_piece){ DP_STACK, 0, -1, 8 + (int64_t)o->number };
		return true;
	}
	if (o->atom == DW_OP_breg7 && list) {	/* rsp */
		*pc = (struct dwarf_piece){ DP_STACK, 0, -1, (int64_t)o->number };
		return true;
	}
	if (*i + 1 < n && ops[*i + 1].atom == DW_OP_stack_value &&
	    ((o->atom >= DW_OP_lit0 && o->atom <= DW_OP_lit31) ||
	     (o->atom >= DW_OP_const1u && o->atom <= DW_OP_consts))) {
		int64_t v = o->atom <= DW_OP_lit31 && o->atom >= DW_OP_lit0 ?
			    o->atom - DW_OP_lit0 : (int64_t)o->number;

		*pc = (struct dwarf_piece){ DP_CONST, 0, -1, v };
		++*i;
		return true;
	}
	return false;
}

/* The pieces of P from its location expression OPS at the entry. */
static bool parse_loc(Dwarf_Die *fn, Dwarf_Attribute *a, Dwarf_Op *ops,
		      size_t n, bool list, int64_t size, struct dwarf_param *p)
{
	struct dwarf_piece pc[DWARF_MAX_PIECES], cur;
	int np = 0;
	bool have = false;
	int64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		if (ops[i].atom == DW_OP_piece) {
			if (np == DWARF_MAX_PIECES)
				return false;
			if (!have)	/* a piece without a location */
				cur = (struct dwarf_piece){ DP_NONE, 0, -1, 0 };
			cur.size = (int)ops[i].number;
			pc[np++] = cur;
			have = false;
			continue;
		}
		if (have || !simple_loc(fn, a, ops, n, &i, list, &cur))
			return false;
		have = true;
	}
	if (have) {
		if (np)
			return false;
		cur.size = (int)size;
		pc[np++] = cur;
	}
	for (int i = 0; i < np; i++) {
		if (pc[i].size <= 0 || (pc[i].kind != DP_STACK && pc[i].size > 8))
			return false;
		total += pc[i].size;
	}
	if (!np || total != size)
		return false;
	memcpy(p->piece, pc, sizeof(pc[0]) * (size_t)np);
	p->npieces = np;
	p->dwarf_loc = true;
	p->why = NULL;
	return true;
}

/* P's DWARF location at ADDR, the entry: 1 when it set P's pieces, 0
 * when it says nothing sonde can use (the convention decides), -1 when
 * a location list says the value is nowhere there. */
static int entry_loc(Dwarf_Die *fn, Dwarf_Die *pd, uint64_t addr,
		     int64_t size, struct dwarf_param *p)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t len;
	Dwarf_Sword v;
	unsigned form;
	bool list;
	int n;

	if (!dwarf_attr(pd, DW_AT_location, &a)) {
		if (dwarf_attr(pd, DW_AT_const_value, &a) && size <= 8 &&
		    !dwarf_formsdata(&a, &v)) {
			p->piece[0] = (struct dwarf_piece){ DP_CONST, (int)size, -1, v };
			p->npieces = 1;
			p->dwarf_loc = true;
			p->why = NULL;
			return 1;
		}
		return 0;
	}
	form = dwarf_whatform(&a);
	list = !(form == DW_FORM_exprloc || form == DW_FORM_block ||
		 form == DW_FORM_block1 || form == DW_FORM_block2 ||
		 form == DW_FORM_block4);
	n = dwarf_getlocation_addr(&a, addr, &ops, &len, 1);
	if (n == 0 && list)	/* the list says it is nowhere at the entry */
		return -1;
	if (n <= 0)
		return 0;
	return parse_loc(fn, &a, ops, len, list, size, p) ? 1 : 0;
}

/* ---- functions ---- */

/* Is D the subprogram that starts at ADDR? */
static bool starts_at(Dwarf_Die *d, uint64_t addr)
{
	Dwarf_Addr lo;

	return dwarf_tag(d) == DW_TAG_subprogram &&
	       ((!dwarf_entrypc(d, &lo) && lo == addr) ||
		(!dwarf_lowpc(d, &lo) && lo == addr));
}

static bool find_by_addr(struct dfile *f, uint64_t addr, Dwarf_Die *out)
{
	Dwarf_Addr b;
	Dwarf_Die *cu = dwfl_module_addrdie(f->mod, addr + f->bias, &b);
	Dwarf_Die *scopes = NULL;
	bool found = false;
	int n;

	if (!cu)
		return false;
	/* the scopes around ADDR, innermost first (something inlined at
	 * the first instruction comes before its function) */
	n = dwarf_getscopes(cu, addr, &scopes);
	for (int i = 0; i < n && !found; i++) {
		if (starts_at(&scopes[i], addr)) {
			*out = scopes[i];
			found = true;
		}
	}
	free(scopes);
	return found;
}

struct byname {
	const char *name;
	uint64_t addr;
	Dwarf_Die die;
	int found;		/* 2: at ADDR; 1: a definition elsewhere */
};

static int byname_cb(Dwarf_Die *d, void *arg)
{
	struct byname *b = arg;
	const char *n = dwarf_diename(d);
	Dwarf_Attribute a;
	const char *ln = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_linkage_name, &a));

	if (!((n && !strcmp(n, b->name)) || (ln && !strcmp(ln, b->name))))
		return DWARF_CB_OK;
	if (!dwarf_hasattr(d, DW_AT_low_pc) && !dwarf_hasattr(d, DW_AT_ranges))
		return DWARF_CB_OK;	/* a declaration, or inlined only */
	if (starts_at(d, b->addr)) {
		b->die = *d;
		b->found = 2;
		return DWARF_CB_ABORT;
	}
	if (!b->found) {
		b->die = *d;
		b->found = 1;
	}
	return DWARF_CB_OK;
}

/* Units without address ranges (clang emits no .debug_aranges): the
 * function by name, at ADDR if one is. */
static bool find_by_name(struct dfile *f, const char *name, uint64_t addr,
			 Dwarf_Die *out)
{
	struct byname b = { name, addr, { 0 }, 0 };
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;

	while (b.found < 2 && (cu = dwfl_module_nextcu(f->mod, cu, &bias)))
		dwarf_getfuncs(cu, byname_cb, &b, 0);
	if (b.found == 2)
		*out = b.die;
	return b.found == 2;
}

/* The formal parameters of FN (of its abstract origin when the
 * concrete instance lists none): up to MAX into V, their number. */
static int param_dies(Dwarf_Die *fn, Dwarf_Die *v, int max)
{
	Dwarf_Die d, origin;
	Dwarf_Attribute a;
	int n = 0;

	if (!dwarf_child(fn, &d)) {
		do {
			if (dwarf_tag(&d) == DW_TAG_formal_parameter && n < max)
				v[n++] = d;
		} while (!dwarf_siblingof(&d, &d));
	}
	if (!n && dwarf_formref_die(dwarf_attr(fn, DW_AT_abstract_origin, &a), &origin))
		return param_dies(&origin, v, max);
	return n;
}

#define MAX_PARAMS 128

static void describe(struct compiler *c, struct dfile *f, Dwarf_Die *fn,
		     const char *name, uint64_t addr, struct dwarf_func *out)
{
	Dwarf_Die pd[MAX_PARAMS], rt;
	struct abi st = { 0, 0, 8 };
	/* a GCC clone (.isra, .constprop, .part) may take its parameters
	 * in other places than the convention says */
	bool clone = strchr(name, '.') != NULL;
	int n = param_dies(fn, pd, MAX_PARAMS);

	if (type_of(fn, &rt)) {		/* a large struct returned: rdi */
		int cl[2] = { CL_NONE, CL_NONE };
		Dwarf_Die d;
		int64_t rs = dwarf_peel_type(&rt, &d) ? 0 : size_of(&d);

		if (rs > 16)
			st.ni = 1;
		else if (rs > 0 && is_struct(dwarf_tag(&d))) {
			classify(&d, 0, cl, 0);
			if (cl[0] == CL_MEM || cl[1] == CL_MEM || by_reference(&d))
				st.ni = 1;
		}
	}
	out->name = arena_strdup(&c->arena, name);
	out->nparams = n;
	out->params = arena_alloc(&c->arena, sizeof(*out->params) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		struct dwarf_param *p = &out->params[i];
		const char *pn = dwarf_diename(&pd[i]);
		Dwarf_Die t, d;
		int64_t size;
		int rc;

		p->name = arena_strdup(&c->arena, pn ? pn : "");
		if (!type_of(&pd[i], &t)) {
			p->ctype = "void";
			p->why = "has no type";
			continue;
		}
		p->ctype = cname(&c->arena, &t, 0);
		p->ty = conv(c, f, &t, NULL, 0);
		if (p->ty && p->ty->kind == TY_VOID)
			p->ty = NULL;
		abi_place(&st, &t, p);
		size = dwarf_peel_type(&t, &d) ? -1 : size_of(&d);
		rc = entry_loc(fn, &pd[i], addr, size, p);
		if (rc < 0 || (rc == 0 && clone)) {
			p->npieces = 0;
			p->why = "is optimized out: not known at the function's entry";
		}
	}
}

int dwarf_func(struct compiler *c, const char *path, const char *name,
	       uint64_t addr, const struct dwarf_func **out)
{
	struct dfile *f = open_file(c, path);
	struct dwarf_func *df;
	char key[32];
	Dwarf_Die fn;

	if (f->err)
		return f->err;
	snprintf(key, sizeof(key), "%llx", (unsigned long long)addr);
	df = strmap_get(&f->funcs, key);
	if (!df) {
		df = arena_alloc(&c->arena, sizeof(*df));
		df->nparams = -1;
		if (find_by_addr(f, addr, &fn) ||
		    (name && find_by_name(f, name, addr, &fn)))
			describe(c, f, &fn, name ? name : key, addr, df);
		strmap_put(&f->funcs, &c->arena, arena_strdup(&c->arena, key), df);
	}
	if (df->nparams < 0)
		return -ENOENT;
	*out = df;
	return 0;
}
