/* btf.c - kernel types from BTF through libbpf's btf__ API.
 *
 * Only what a script touches is converted: a struct becomes a TY_STRUCT
 * naming its BTF id, and its members are looked up when a script names
 * them, so a script never makes sonde walk all of vmlinux's types.
 */
#include "catalog/btf.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The kernel's BTF: /sys/kernel/btf/vmlinux, or the file
 * BPFTRACE_BTF names (c->btf_path), as bpftrace reads it; it must
 * describe the running kernel, since fentry, tp_btf and iter probes
 * attach by its type ids. */
struct btf *btf_kernel(struct compiler *c, const char **why)
{
	if (!c->btf && !c->btf_failed) {
		c->btf = c->btf_path ? btf__parse(c->btf_path, NULL) :
				       btf__load_vmlinux_btf();
		if (!c->btf) {
			c->btf_failed = true;
			c->btf = NULL;
		}
	}
	if (!c->btf && why)
		*why = c->btf_path ?
		       "BPFTRACE_BTF names no BTF file that can be read, so kernel types are unknown" :
		       "this kernel has no BTF (/sys/kernel/btf/vmlinux), so kernel types are unknown";
	return c->btf;
}

bool btf_available(struct compiler *c)
{
	if (c->btf)
		return true;
	return !c->btf_failed &&
	       access(c->btf_path ? c->btf_path : "/sys/kernel/btf/vmlinux",
		      R_OK) == 0;
}

/* Every enumerator of the kernel into c->btf_enums, the value in the
 * arena and the name in the BTF (which lives as long as the compile);
 * where two enums name one enumerator (static enums of two files),
 * the first in BTF's order wins. */
static void read_enums(struct compiler *c, struct btf *b)
{
	int n = (int)btf__type_cnt(b);

	for (int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		int vlen = btf_vlen(t);
		bool sign = !btf_kflag(t);

		if (!btf_is_enum(t) && !btf_is_enum64(t))
			continue;
		for (int i = 0; i < vlen; i++) {
			const char *name;
			int64_t *v;
			uint32_t off;

			if (btf_is_enum(t)) {
				const struct btf_enum *e = btf_enum(t) + i;

				off = e->name_off;
				v = arena_alloc(&c->arena, sizeof(*v));
				*v = sign ? (int64_t)e->val : (int64_t)(uint32_t)e->val;
			} else {
				const struct btf_enum64 *e = btf_enum64(t) + i;

				off = e->name_off;
				v = arena_alloc(&c->arena, sizeof(*v));
				*v = (int64_t)btf_enum64_value(e);
			}
			name = btf__name_by_offset(b, off);
			if (name && *name && !strmap_get(&c->btf_enums, name))
				strmap_put(&c->btf_enums, &c->arena, name, v);
		}
	}
}

/* The enumerators of BTF enum ID, as a value of it prints them: one
 * table per enum (types compare them by address). */
static const struct enum_def *enum_def(struct compiler *c, struct btf *b,
				       int id)
{
	const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
	char key[16];
	struct enum_def *d;
	int vlen = btf_vlen(t);
	bool sign = !btf_kflag(t);
	const char *tn = btf__name_by_offset(b, t->name_off);

	snprintf(key, sizeof(key), "%d", id);
	d = strmap_get(&c->btf_enum_defs, key);
	if (d)
		return d;
	d = arena_alloc(&c->arena, sizeof(*d));
	strmap_put(&c->btf_enum_defs, &c->arena, arena_printf(&c->arena, "%s", key), d);

	d->name = tn && *tn ? arena_printf(&c->arena, "enum %s", tn) : NULL;
	d->n = vlen;
	d->names = arena_alloc(&c->arena, sizeof(*d->names) * (size_t)(vlen + 1));
	d->vals = arena_alloc(&c->arena, sizeof(*d->vals) * (size_t)(vlen + 1));
	for (int i = 0; i < vlen; i++) {
		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t) + i;

			d->names[i] = btf__name_by_offset(b, e->name_off);
			d->vals[i] = sign ? (int64_t)e->val
					  : (int64_t)(uint32_t)e->val;
		} else {
			const struct btf_enum64 *e = btf_enum64(t) + i;

			d->names[i] = btf__name_by_offset(b, e->name_off);
			d->vals[i] = (int64_t)btf_enum64_value(e);
		}
	}
	return d;
}

const struct enum_def *btf_enum_def(struct compiler *c, const char *name)
{
	struct btf *b = btf_kernel(c, NULL);
	const char *tn = !strncmp(name, "enum ", 5) ? name + 5 : name;
	int id;

	if (!b)
		return NULL;
	id = btf__find_by_name_kind(b, tn, BTF_KIND_ENUM);
	if (id <= 0)
		id = btf__find_by_name_kind(b, tn, BTF_KIND_ENUM64);
	return id > 0 ? enum_def(c, b, id) : NULL;
}

const struct enum_def *btf_enum_of(struct compiler *c, const char *name)
{
	struct btf *b = btf_kernel(c, NULL);
	int n = b ? (int)btf__type_cnt(b) : 0;

	for (int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		int vlen = btf_vlen(t);

		if (!btf_is_enum(t) && !btf_is_enum64(t))
			continue;
		for (int i = 0; i < vlen; i++) {
			uint32_t off = btf_is_enum(t) ? btf_enum(t)[i].name_off
						      : btf_enum64(t)[i].name_off;

			if (!strcmp(btf__name_by_offset(b, off), name))
				return enum_def(c, b, id);
		}
	}
	return NULL;
}

bool btf_enum_value(struct compiler *c, const char *name, int64_t *value)
{
	struct btf *b;
	int64_t *v;

	if (!c->btf_enums_read) {
		c->btf_enums_read = true;
		b = btf_kernel(c, NULL);
		if (b)
			read_enums(c, b);
	}
	v = strmap_get(&c->btf_enums, name);
	if (v)
		*value = *v;
	return v != NULL;
}

/* FN(ARG, NAME) for each typedef btf_trace_NAME of B from type FIRST on
 * whose NAME matches GLOB. */
static void tp_typedefs(const struct btf *b, int first, const char *glob,
			void (*fn)(void *arg, const char *name), void *arg)
{
	int n = (int)btf__type_cnt(b);

	for (int id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *tn;

		if (!btf_is_typedef(t))
			continue;
		tn = btf__name_by_offset(b, t->name_off);
		if (tn && !strncmp(tn, "btf_trace_", 10) &&
		    !fnmatch(glob, tn + 10, 0))
			fn(arg, tn + 10);
	}
}

int btf_raw_tracepoints(struct compiler *c, const char *glob,
			void (*fn)(void *arg, const char *name), void *arg)
{
	struct btf *b = c ? btf_kernel(c, NULL) : btf__load_vmlinux_btf();

	if (!b)
		return -ENOENT;
	tp_typedefs(b, 1, glob, fn, arg);
	if (!c)
		btf__free(b);
	return 0;
}

int btf_module_raw_tracepoints(struct compiler *c, const char *mod,
			       const char *glob,
			       void (*fn)(void *arg, const char *name),
			       void *arg)
{
	struct btf *base = btf_kernel(c, NULL), *b;
	char path[300];

	if (!base || strchr(mod, '/'))
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	b = btf__parse_split(path, base);
	if (!b)
		return -errno;
	tp_typedefs(b, (int)btf__type_cnt(base), glob, fn, arg);
	btf__free(b);
	return 0;
}

void btf_release(struct compiler *c)
{
	if (c->btf)
		btf__free(c->btf);
	c->btf = NULL;
}

/* Skip typedefs, const, volatile, restrict, type tags. */
static int skip_mods(const struct btf *b, int id)
{
	for (int guard = 0; guard < 64; guard++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);

		if (!t)
			return -1;
		if (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) ||
		    btf_is_restrict(t) || btf_is_type_tag(t))
			id = (int)t->type;
		else
			return id;
	}
	return -1;
}

static struct type *make(struct compiler *c, enum ty_kind k, int size)
{
	struct type *t = arena_alloc(&c->arena, sizeof(*t));

	t->kind = k;
	t->size = size;
	return t;
}

struct type *btf_type(struct compiler *c, int id)
{
	struct btf *b = btf_kernel(c, NULL);
	const struct btf_type *t;

	if (!b)
		return NULL;
	id = skip_mods(b, id);
	if (id < 0)
		return NULL;
	if (id == 0)
		return &ty_void;
	t = btf__type_by_id(b, (unsigned)id);
	if (btf_is_int(t)) {
		int sz = (int)t->size;

		if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
			return NULL;
		if (sz == 1 && (btf_int_encoding(t) & BTF_INT_BOOL))
			return &ty_bool;
		return ty_int(sz, (btf_int_encoding(t) & BTF_INT_SIGNED) != 0);
	}
	if (btf_is_enum(t) || btf_is_enum64(t)) {
		int sz = (int)t->size;
		struct type *e = make(c, TY_INT, sz == 1 || sz == 2 || sz == 4 ?
				      sz : 8);

		e->is_signed = true;
		e->edef = enum_def(c, b, id);
		return e;
	}
	if (btf_is_ptr(t)) {
		struct type *p = make(c, TY_PTR, 8);
		int to = skip_mods(b, (int)t->type);
		const struct btf_type *tt = to > 0 ? btf__type_by_id(b, (unsigned)to) : NULL;

		/* pointers to structs, unions and integers keep their
		 * target; others (functions, pointers) are plain pointers */
		if (tt && (btf_is_composite(tt) || btf_is_int(tt) || btf_is_enum(tt)))
			p->pointee = btf_type(c, to);
		p->btf_id = id;	/* a kernel pointer */
		return p;
	}
	if (btf_is_composite(t)) {
		struct type *s = make(c, TY_STRUCT, (int)t->size);
		const char *name = btf__name_by_offset(b, t->name_off);

		s->btf_id = id;
		s->sname = arena_printf(&c->arena, "%s %s",
					btf_is_struct(t) ? "struct" : "union",
					name && *name ? name : "(anonymous)");
		return s;
	}
	if (btf_is_array(t)) {
		const struct btf_array *a = btf_array(t);
		int el = skip_mods(b, (int)a->type);
		const struct btf_type *et = el > 0 ? btf__type_by_id(b, (unsigned)el) : NULL;

		struct type *of;

		/* char[N] reads as a string, other arrays (unsigned
		 * char[N] too) as arrays, as in bpftrace */
		if (et && btf_is_int(et) && et->size == 1 && a->nelems > 0 &&
		    !strcmp(btf__name_by_offset(b, et->name_off), "char"))
			return ty_str(&c->arena, (int)a->nelems);
		of = el > 0 ? btf_type(c, el) : NULL;
		if (!of || of->kind == TY_VOID || !of->size ||
		    a->nelems > (1u << 20) / (unsigned)of->size)
			return NULL;
		return ty_array(&c->arena, of, (int)a->nelems);
	}
	return NULL;
}

struct type *btf_type_by_name(struct compiler *c, const char *name)
{
	struct btf *b = btf_kernel(c, NULL);
	int kind = BTF_KIND_STRUCT, id;

	if (!b)
		return NULL;
	if (!strncmp(name, "struct ", 7)) {
		name += 7;
	} else if (!strncmp(name, "union ", 6)) {
		name += 6;
		kind = BTF_KIND_UNION;
	} else if (!strncmp(name, "enum ", 5)) {
		name += 5;
		kind = BTF_KIND_ENUM;
	}
	id = btf__find_by_name_kind(b, name, (unsigned)kind);
	if (id < 0)
		id = btf__find_by_name_kind(b, name, BTF_KIND_TYPEDEF);
	if (id < 0)
		return NULL;
	return btf_type(c, id);
}

/* Search members of struct ID, descending into anonymous ones. */
static int find(struct compiler *c, int id, const char *name, int base_bits,
		struct btf_member_info *out)
{
	struct btf *b = c->btf;
	const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
	const struct btf_member *m = btf_members(t);
	int n = btf_vlen(t);

	for (int i = 0; i < n; i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		int bits = base_bits + (int)btf_member_bit_offset(t, (unsigned)i);
		int bsize = (int)btf_member_bitfield_size(t, (unsigned)i);

		if (mn && *mn) {
			if (strcmp(mn, name))
				continue;
			out->ty = btf_type(c, (int)m->type);
			if (bsize) {
				out->offset = bits / 8;
				out->bit_shift = bits % 8;
				out->bit_size = bsize;
				out->ty = ty_int(8, false);
			} else {
				out->offset = bits / 8;
				out->bit_shift = out->bit_size = 0;
			}
			return out->ty ? 0 : -ENOTSUP;
		} else {
			int sub = skip_mods(b, (int)m->type);
			const struct btf_type *st = sub > 0 ? btf__type_by_id(b, (unsigned)sub) : NULL;

			if (st && btf_is_composite(st)) {
				int rc = find(c, sub, name, bits, out);

				if (rc != -ENOENT)
					return rc;
			}
		}
	}
	return -ENOENT;
}

/* Append the members of BTF struct ID, BASE_BITS into the outer one,
 * to *V (*N of *CAP), anonymous ones' members in their place. */
static void collect(struct compiler *c, int id, int base_bits,
		    struct smember **v, int *n, int *cap, int depth)
{
	struct btf *b = c->btf;
	const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
	const struct btf_member *m = btf_members(t);
	int cnt = btf_vlen(t);

	for (int i = 0; i < cnt && depth < 16; i++, m++) {
		const char *mn = btf__name_by_offset(b, m->name_off);
		int bits = base_bits + (int)btf_member_bit_offset(t, (unsigned)i);
		int bsize = (int)btf_member_bitfield_size(t, (unsigned)i);
		struct smember *sm;

		if (!mn || !*mn) {
			int sub = skip_mods(b, (int)m->type);
			const struct btf_type *st = sub > 0 ?
				btf__type_by_id(b, (unsigned)sub) : NULL;

			if (st && btf_is_composite(st))
				collect(c, sub, bits, v, n, cap, depth + 1);
			continue;
		}
		if (*n == *cap) {
			struct smember *nv;

			*cap = *cap ? *cap * 2 : 16;
			nv = arena_alloc(&c->arena, sizeof(*nv) * (size_t)*cap);
			if (*n)
				memcpy(nv, *v, sizeof(*nv) * (size_t)*n);
			*v = nv;
		}
		sm = &(*v)[(*n)++];
		sm->name = arena_strdup(&c->arena, mn);
		sm->bitoff = bits;
		sm->bitsize = bsize;
		sm->ty = bsize ? ty_int(8, false) : btf_type(c, (int)m->type);
	}
}

int btf_struct_layout(struct compiler *c, struct type *st)
{
	int cap = 0;

	if (st->kind != TY_STRUCT || !st->btf_id || st->nmembers)
		return 0;
	if (!btf_kernel(c, NULL))
		return -ENOENT;
	collect(c, st->btf_id, 0, &st->members, &st->nmembers, &cap, 0);
	return 0;
}

int btf_member(struct compiler *c, const struct type *st, const char *name,
	       struct btf_member_info *out)
{
	if (st->kind != TY_STRUCT)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	if (!st->btf_id) {	/* defined by the script */
		for (int i = 0; i < st->nmembers; i++) {
			const struct smember *m = &st->members[i];

			if (strcmp(m->name, name))
				continue;
			out->offset = m->bitoff / 8;
			out->bit_shift = m->bitsize ? m->bitoff % 8 : 0;
			out->bit_size = m->bitsize;
			out->ty = m->ty;
			return m->ty ? 0 : -ENOTSUP;
		}
		return -ENOENT;
	}
	if (!btf_kernel(c, NULL))
		return -ENOENT;
	return find(c, st->btf_id, name, 0, out);
}

int btf_tp_args(struct compiler *c, const char *name, const char ***names,
		struct type ***types, int *id)
{
	struct btf *b = btf_kernel(c, NULL);
	char tname[256];
	const struct btf_type *t;
	const struct btf_param *p;
	int tid, n;

	if (!b)
		return -ENOENT;
	snprintf(tname, sizeof(tname), "btf_trace_%s", name);
	tid = btf__find_by_name_kind(b, tname, BTF_KIND_TYPEDEF);
	if (tid < 0)
		return -ENOENT;
	/* The typedef's prototype has no parameter names; the kernel's
	 * __bpf_trace_NAME function has the same parameters, named. */
	snprintf(tname, sizeof(tname), "__bpf_trace_%s", name);
	n = btf__find_by_name_kind(b, tname, BTF_KIND_FUNC);
	if (n >= 0) {
		t = btf__type_by_id(b, (unsigned)n);
		t = btf__type_by_id(b, t->type);
	} else {
		t = btf__type_by_id(b, (unsigned)tid);
		t = btf__type_by_id(b, t->type);	/* the pointer */
		if (!t || !btf_is_ptr(t))
			return -EINVAL;
		t = btf__type_by_id(b, t->type);
	}
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < 1)
		return -EINVAL;
	n = btf_vlen(t) - 1;
	p = btf_params(t) + 1;
	*names = arena_alloc(&c->arena, sizeof(char *) * (size_t)(n ? n : 1));
	*types = arena_alloc(&c->arena, sizeof(struct type *) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const char *pn = btf__name_by_offset(b, p[i].name_off);

		(*names)[i] = arena_strdup(&c->arena, pn ? pn : "");
		(*types)[i] = btf_type(c, (int)p[i].type);
	}
	*id = tid;
	return n;
}

int btf_func_args(struct compiler *c, const char *name, const char ***names,
		  struct type ***types, struct type **ret, int *id)
{
	struct btf *b = btf_kernel(c, NULL);
	const struct btf_type *t;
	const struct btf_param *p;
	int fid, n;

	if (!b)
		return -ENOENT;
	fid = btf__find_by_name_kind(b, name, BTF_KIND_FUNC);
	if (fid < 0)
		return -ENOENT;
	t = btf__type_by_id(b, (unsigned)fid);
	t = btf__type_by_id(b, t->type);
	if (!t || !btf_is_func_proto(t))
		return -EINVAL;
	n = btf_vlen(t);
	p = btf_params(t);
	*names = arena_alloc(&c->arena, sizeof(char *) * (size_t)(n ? n : 1));
	*types = arena_alloc(&c->arena, sizeof(struct type *) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const char *pn = btf__name_by_offset(b, p[i].name_off);

		(*names)[i] = arena_strdup(&c->arena, pn ? pn : "");
		(*types)[i] = btf_type(c, (int)p[i].type);
	}
	*ret = t->type ? btf_type(c, (int)t->type) : NULL;
	*id = fid;
	return n;
}

/* The BTF id of kernel variable NAME (a per-CPU variable: BTF describes
 * only those), or -ENOENT. */
int btf_var_id(struct compiler *c, const char *name)
{
	struct btf *b = btf_kernel(c, NULL);
	int id;

	if (!b)
		return -ENOENT;
	id = btf__find_by_name_kind(b, name, BTF_KIND_VAR);
	return id < 0 ? -ENOENT : id;
}
