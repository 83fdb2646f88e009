/* types.c - type constructors, C conversions, names. */
#include "base/types.h"

#include <stdio.h>
#include <string.h>

struct type ty_error = { .kind = TY_ERROR };
struct type ty_void = { .kind = TY_VOID };
struct type ty_mapref = { .kind = TY_MAPREF };
struct type ty_ksym = { .kind = TY_KSYM, .size = 8 };
struct type ty_usym = { .kind = TY_USYM, .size = 16 };
struct type ty_kmod = { .kind = TY_KSYM, .size = 8, .modonly = true };
struct type ty_umod = { .kind = TY_USYM, .size = 16, .modonly = true };
struct type ty_username = { .kind = TY_USERNAME, .size = 8 };
struct type ty_inet = { .kind = TY_INET, .size = 24 };
struct type ty_mac = { .kind = TY_MAC, .size = 6 };
struct type ty_strerror = { .kind = TY_STRERROR, .size = 8 };
struct type ty_cgpath = { .kind = TY_CGPATH, .size = 16 };
struct type ty_s8 = { .kind = TY_INT, .size = 1, .is_signed = true };
struct type ty_s16 = { .kind = TY_INT, .size = 2, .is_signed = true };
struct type ty_s32 = { .kind = TY_INT, .size = 4, .is_signed = true };
struct type ty_s64 = { .kind = TY_INT, .size = 8, .is_signed = true };
struct type ty_u8 = { .kind = TY_INT, .size = 1 };
struct type ty_u16 = { .kind = TY_INT, .size = 2 };
struct type ty_u32 = { .kind = TY_INT, .size = 4 };
struct type ty_u64 = { .kind = TY_INT, .size = 8 };
struct type ty_bool = { .kind = TY_INT, .size = 1, .boolean = true };
struct type ty_lit = { .kind = TY_INT, .size = 8, .is_signed = true,
		       .literal = true };

struct type *ty_int(int size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? &ty_s8 : &ty_u8;
	case 2: return is_signed ? &ty_s16 : &ty_u16;
	case 4: return is_signed ? &ty_s32 : &ty_u32;
	default: return is_signed ? &ty_s64 : &ty_u64;
	}
}

struct type *ty_resize(struct arena *a, const struct type *t, int size,
		       bool is_signed)
{
	struct type *r;

	if (t->size == size && t->is_signed == is_signed)
		return (struct type *)t;
	if (!t->boolean && !t->edef)
		return ty_int(size, is_signed);
	r = arena_alloc(a, sizeof(*r));
	*r = *t;
	r->size = size;
	r->is_signed = is_signed;
	r->literal = false;
	return r;
}

int ty_field(const struct type *t, const char *name)
{
	if (t->kind != TY_TUPLE || !t->names)
		return -1;
	for (int i = 0; i < t->nelem; i++)
		if (!strcmp(t->names[i], name))
			return i;
	return -1;
}

struct type *ty_str(struct arena *a, int size)
{
	struct type *t = arena_alloc(a, sizeof(*t));

	t->kind = TY_STR;
	t->size = size;
	return t;
}

struct type *ty_buf(struct arena *a, int size)
{
	struct type *t = arena_alloc(a, sizeof(*t));

	t->kind = TY_BUF;
	t->size = size;
	return t;
}

struct type *ty_tstamp(struct arena *a, const char *fmt)
{
	struct type *t = arena_alloc(a, sizeof(*t));

	t->kind = TY_TSTAMP;
	t->size = 16;
	t->tfmt = fmt;
	return t;
}

struct type *ty_kstack(struct arena *a, enum stack_mode mode, int depth,
		       bool user)
{
	struct type *t = arena_alloc(a, sizeof(*t));

	t->kind = TY_KSTACK;
	t->size = 8;
	t->smode = mode;
	t->sdepth = depth;
	t->suser = user;
	return t;
}

struct type *ty_ptr_chain(struct arena *a, struct type *to, int levels)
{
	struct type *t = NULL;

	for (int i = 0; i < levels; i++) {
		struct type *p = arena_alloc(a, sizeof(*p));

		p->kind = TY_PTR;
		p->size = 8;
		/* void * and pointers to unknown types point to nothing
		 * readable; a pointer to a pointer to them, to a pointer */
		p->pointee = i ? t : to && to->kind != TY_VOID ? to : NULL;
		t = p;
	}
	return t;
}

struct type *ty_array(struct arena *a, struct type *of, int n)
{
	struct type *t = arena_alloc(a, sizeof(*t));

	t->kind = TY_ARRAY;
	t->of = of;
	t->nelem = n;
	t->size = of->size * n;
	return t;
}

int ty_align(const struct type *t)
{
	switch (t->kind) {
	case TY_INT: return t->size;
	case TY_PTR: return 8;
	case TY_ARRAY: return ty_align(t->of);
	case TY_TUPLE: return t->align;
	case TY_STRUCT:	/* script structs keep theirs in nelem */
		if (!t->btf_id)
			return t->nelem > 0 ? t->nelem : 1;
		return t->size >= 8 ? 8 : t->size >= 4 ? 4 : t->size >= 2 ? 2 : 1;
	default: return 1;
	}
}

int ty_slot_size(const struct type *t)
{
	switch (t->kind) {
	case TY_INT: case TY_PTR: case TY_KSTACK: case TY_KSYM:
	case TY_USERNAME: case TY_STRERROR:
		return 8;
	case TY_STR: case TY_TUPLE: return ALIGN_UP(t->size, 8);
	case TY_USYM: case TY_INET: case TY_TSTAMP: case TY_CGPATH:
		return t->size;
	case TY_MAC: return 8;
	case TY_BUF: return 8 + ALIGN_UP(t->size, 8);
	case TY_ARRAY: case TY_STRUCT: return ALIGN_UP(t->size, 8);
	default: return 0;
	}
}

/* Bytes and alignment of a value of T inside a tuple, as bpftrace 0.17
 * has them (SizedType::GetInTupleAlignment): strings and byte arrays
 * at any byte, integers at their size, tuples at their largest
 * element's; sonde's other values (stacks, symbols, timestamps ...),
 * whose layouts are sonde's own, take their 8-byte slots. */
static int in_tuple(const struct type *t, int *align)
{
	switch (t->kind) {
	case TY_STR:
		*align = 1;
		return t->size;
	case TY_ARRAY: case TY_STRUCT:
		*align = ty_align(t);
		return t->size;
	case TY_INT:
		*align = t->size;
		return t->size;
	case TY_TUPLE:
		*align = t->slots ? 8 : t->align;
		return t->slots ? ty_slot_size(t) : t->size;
	default:
		*align = 8;
		return ty_slot_size(t);
	}
}

static struct type *tuple(struct arena *a, struct type **elem, int n,
			  bool slots)
{
	struct type *t = arena_alloc(a, sizeof(*t));
	int off = 0, max = 1;

	t->kind = TY_TUPLE;
	t->nelem = n;
	t->slots = slots;
	t->elem = arena_alloc(a, sizeof(*t->elem) * (size_t)n);
	t->off = arena_alloc(a, sizeof(*t->off) * (size_t)n);
	for (int i = 0; i < n; i++) {
		int al, size = in_tuple(elem[i], &al);

		if (slots) {
			al = 8;
			size = ty_slot_size(elem[i]);
		}
		if (al > max)
			max = al;
		off = ALIGN_UP(off, al);
		t->elem[i] = elem[i];
		t->off[i] = off;
		off += size;
	}
	t->align = max;
	t->size = ALIGN_UP(off, max);
	return t;
}

struct type *ty_tuple(struct arena *a, struct type **elem, int n)
{
	return tuple(a, elem, n, false);
}

struct type *ty_tuple_slots(struct arena *a, struct type **elem, int n)
{
	return tuple(a, elem, n, true);
}

bool ty_elem_whole(const struct type *t, int i)
{
	/* not the tuple's slot: a tuple inside another may end before it */
	int end = i + 1 < t->nelem ? t->off[i + 1] : t->size;

	return !(t->off[i] & 7) && end - t->off[i] >= ty_slot_size(t->elem[i]);
}

bool ty_equal(const struct type *a, const struct type *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case TY_INT:
		return a->size == b->size && a->is_signed == b->is_signed &&
		       a->boolean == b->boolean;
	case TY_STR: case TY_BUF:
		return a->size == b->size;
	case TY_ARRAY:
		return a->nelem == b->nelem && ty_equal(a->of, b->of);
	case TY_STRUCT:
		return a->btf_id == b->btf_id && a->size == b->size &&
		       (a->sname == b->sname ||
			(a->sname && b->sname && !strcmp(a->sname, b->sname)));
	case TY_KSTACK:
		return a->smode == b->smode && a->sdepth == b->sdepth &&
		       a->suser == b->suser;
	case TY_TUPLE:
		if (a->nelem != b->nelem || a->slots != b->slots ||
		    !a->names != !b->names)
			return false;
		for (int i = 0; i < a->nelem; i++)
			if (!ty_equal(a->elem[i], b->elem[i]) ||
			    (a->names && strcmp(a->names[i], b->names[i])))
				return false;
		return true;
	default:
		return true;
	}
}

struct type *ty_promote(const struct type *a)
{
	if (a->kind == TY_PTR)
		return &ty_u64;
	if (a->size < 4)
		return &ty_s32;
	return ty_int(a->size, a->is_signed);
}

struct type *ty_arith(const struct type *a, const struct type *b)
{
	const struct type *x = ty_promote(a), *y = ty_promote(b);

	if (x->is_signed == y->is_signed)
		return ty_int(x->size > y->size ? x->size : y->size,
			      x->is_signed);
	if (x->is_signed) {
		const struct type *t = x;

		x = y;
		y = t;
	}
	/* x unsigned, y signed */
	if (x->size >= y->size)
		return ty_int(x->size, false);
	return ty_int(y->size, true);
}

static void name_into(char *buf, size_t cap, const struct type *t)
{
	size_t n;

	switch (t->kind) {
	case TY_ERROR: snprintf(buf, cap, "<error>"); break;
	case TY_VOID: snprintf(buf, cap, "void"); break;
	case TY_MAPREF: snprintf(buf, cap, "map"); break;
	case TY_TSTAMP: snprintf(buf, cap, "timestamp"); break;
	case TY_STRUCT: snprintf(buf, cap, "%s", t->sname ? t->sname : "struct"); break;
	case TY_PTR: {
		size_t k;

		if (t->pointee)
			name_into(buf, cap, t->pointee);
		else
			snprintf(buf, cap, "void");
		k = strlen(buf);
		snprintf(buf + k, cap - k, " *");
		break;
	}
	case TY_KSYM: snprintf(buf, cap, "ksym"); break;
	case TY_USYM: snprintf(buf, cap, "usym"); break;
	case TY_USERNAME: snprintf(buf, cap, "username"); break;
	case TY_STRERROR: snprintf(buf, cap, "strerror"); break;
	case TY_CGPATH: snprintf(buf, cap, "cgroup_path"); break;
	case TY_INET: snprintf(buf, cap, "inet"); break;
	case TY_MAC: snprintf(buf, cap, "macaddr"); break;
	case TY_BUF: snprintf(buf, cap, "buffer[%d]", t->size); break;
	case TY_KSTACK: {
		static const char *const modes[] = { "bpftrace", "perf", "raw",
						     "build_id" };
		const char *k = t->suser ? "ustack" : "kstack";

		/* as the script spells it */
		if (t->sdepth == KSTACK_MAX_DEPTH && t->smode == SM_BPFTRACE)
			snprintf(buf, cap, "%s", k);
		else if (t->sdepth == KSTACK_MAX_DEPTH)
			snprintf(buf, cap, "%s(%s)", k, modes[t->smode]);
		else if (t->smode == SM_BPFTRACE)
			snprintf(buf, cap, "%s(%d)", k, t->sdepth);
		else
			snprintf(buf, cap, "%s(%s, %d)", k, modes[t->smode],
				 t->sdepth);
		break;
	}
	case TY_INT:
		if (t->boolean)
			snprintf(buf, cap, "bool");
		else if (t->edef && t->edef->name)
			snprintf(buf, cap, "%s", t->edef->name);
		else
			snprintf(buf, cap, "%sint%d", t->is_signed ? "" : "u",
				 t->size * 8);
		break;
	case TY_STR: snprintf(buf, cap, "string[%d]", t->size); break;
	case TY_ARRAY:
		name_into(buf, cap, t->of);
		n = strlen(buf);
		/* int32[2][3]: the outer dimension first */
		if (t->of->kind == TY_ARRAY) {
			char inner[64];
			const char *br = strchr(buf, '[');

			snprintf(inner, sizeof(inner), "%s", br ? br : "");
			if (br)
				buf[br - buf] = 0;
			n = strlen(buf);
			snprintf(buf + n, cap - n, "[%d]%s", t->nelem, inner);
		} else {
			snprintf(buf + n, cap - n, "[%d]", t->nelem);
		}
		break;
	case TY_TUPLE:
		snprintf(buf, cap, "(");
		for (int i = 0; i < t->nelem; i++) {
			n = strlen(buf);
			if (i && n + 2 < cap) {
				strcpy(buf + n, ", ");
				n += 2;
			}
			if (t->names)
				snprintf(buf + n, cap - n, "%s=", t->names[i]);
			n = strlen(buf);
			name_into(buf + n, cap - n, t->elem[i]);
		}
		n = strlen(buf);
		snprintf(buf + n, cap - n, ")");
		break;
	}
}

const char *type_name(const struct type *t)
{
	static char bufs[4][256];
	static int k;
	char *b = bufs[k++ & 3];

	name_into(b, sizeof(bufs[0]), t);
	return b;
}

/* Names of fixed integer types: bpftrace's, the kernel's, and
 * <stdint.h>/<stddef.h>'s and the usual <sys/types.h> ones, as scripts
 * use them without an include (x86-64 sizes). */
static struct type *named_int(const char *name)
{
	static const struct {
		const char *name;
		struct type *t;
	} names[] = {
		{ "int8", &ty_s8 }, { "int16", &ty_s16 }, { "int32", &ty_s32 },
		{ "int64", &ty_s64 }, { "uint8", &ty_u8 }, { "uint16", &ty_u16 },
		{ "uint32", &ty_u32 }, { "uint64", &ty_u64 },
		{ "s8", &ty_s8 }, { "s16", &ty_s16 }, { "s32", &ty_s32 },
		{ "s64", &ty_s64 }, { "u8", &ty_u8 }, { "u16", &ty_u16 },
		{ "u32", &ty_u32 }, { "u64", &ty_u64 },
		{ "__s8", &ty_s8 }, { "__s16", &ty_s16 }, { "__s32", &ty_s32 },
		{ "__s64", &ty_s64 }, { "__u8", &ty_u8 }, { "__u16", &ty_u16 },
		{ "__u32", &ty_u32 }, { "__u64", &ty_u64 },
		{ "int8_t", &ty_s8 }, { "int16_t", &ty_s16 }, { "int32_t", &ty_s32 },
		{ "int64_t", &ty_s64 }, { "uint8_t", &ty_u8 },
		{ "uint16_t", &ty_u16 }, { "uint32_t", &ty_u32 },
		{ "uint64_t", &ty_u64 }, { "u_int8_t", &ty_u8 },
		{ "u_int16_t", &ty_u16 }, { "u_int32_t", &ty_u32 },
		{ "u_int64_t", &ty_u64 }, { "intptr_t", &ty_s64 },
		{ "uintptr_t", &ty_u64 }, { "intmax_t", &ty_s64 },
		{ "uintmax_t", &ty_u64 }, { "size_t", &ty_u64 },
		{ "ssize_t", &ty_s64 }, { "ptrdiff_t", &ty_s64 },
		{ "off_t", &ty_s64 }, { "loff_t", &ty_s64 }, { "pid_t", &ty_s32 },
		{ "uid_t", &ty_u32 }, { "gid_t", &ty_u32 }, { "mode_t", &ty_u32 },
		{ "dev_t", &ty_u64 }, { "ino_t", &ty_u64 }, { "time_t", &ty_s64 },
		{ "clockid_t", &ty_s32 }, { "socklen_t", &ty_u32 },
		{ "bool", &ty_bool }, { "_Bool", &ty_bool },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(names[i].name, name) == 0)
			return names[i].t;
	return NULL;
}

/* A C integer type spelt with the words signed, unsigned, char, short,
 * int, long in any order ("unsigned long int", "long long", "signed"),
 * or NULL. */
static struct type *c_words(const char *name)
{
	int nlong = 0, nshort = 0, nchar = 0, nint = 0, sign = 0;

	while (*name) {
		size_t n = strcspn(name, " ");

		if (n == 4 && !strncmp(name, "long", 4))
			nlong++;
		else if (n == 5 && !strncmp(name, "short", 5))
			nshort++;
		else if (n == 4 && !strncmp(name, "char", 4))
			nchar++;
		else if (n == 3 && !strncmp(name, "int", 3))
			nint++;
		else if (n == 6 && !strncmp(name, "signed", 6))
			sign = sign ? -2 : 1;
		else if (n == 8 && !strncmp(name, "unsigned", 8))
			sign = sign ? -2 : -1;
		else
			return NULL;
		name += n;
		while (*name == ' ')
			name++;
	}
	if (sign == -2 || nint > 1 || nchar > 1 || nlong > 2 || nshort > 1 ||
	    (nchar && (nlong || nshort || nint)) || (nshort && nlong) ||
	    !(nlong || nshort || nchar || nint || sign))
		return NULL;
	if (nchar)	/* plain char is signed on x86-64 */
		return ty_int(1, sign >= 0);
	return ty_int(nshort ? 2 : nlong ? 8 : 4, sign >= 0);
}

struct type *ty_by_name(const char *name)
{
	struct type *t = named_int(name);

	return t ? t : c_words(name);
}

struct smember *ty_add_member(struct arena *a, struct type *st, int *cap,
			      const char *name, struct type *t, int bit,
			      int bits)
{
	struct smember *sm;

	if (st->nmembers == *cap) {
		struct smember *v;

		*cap = *cap ? *cap * 2 : 8;
		v = arena_alloc(a, sizeof(*v) * (size_t)*cap);
		if (st->nmembers)
			memcpy(v, st->members, sizeof(*v) * (size_t)st->nmembers);
		st->members = v;
	}
	sm = &st->members[st->nmembers++];
	sm->name = name;
	sm->bitoff = bit;
	sm->bitsize = bits;
	sm->ty = t && t->kind != TY_VOID ? t : NULL;
	return sm;
}
