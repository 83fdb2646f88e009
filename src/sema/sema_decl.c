/* sema_decl.c - top-level map declarations, let @m = KIND(N);
 * (docs/language.md, "Map declarations"): the BPF map type and size of
 * a map, which its use must fit.  A map not declared keeps the type its
 * use picks (sema.c finalize_maps) and BPFTRACE_MAP_KEYS_MAX entries. */
#include "sema/sema_int.h"

#include <string.h>

static const struct {
	const char *name;
	enum bpf_map_type type;
} kinds[] = {
	{ "hash", BPF_MAP_TYPE_HASH },
	{ "lruhash", BPF_MAP_TYPE_LRU_HASH },
	{ "percpuhash", BPF_MAP_TYPE_PERCPU_HASH },
	{ "percpulruhash", BPF_MAP_TYPE_LRU_PERCPU_HASH },
	{ "percpuarray", BPF_MAP_TYPE_PERCPU_ARRAY },
};

static const char *kind_name(enum bpf_map_type t)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].type == t)
			return kinds[i].name;
	return "?";
}

static bool type_percpu(enum bpf_map_type t)
{
	return t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* One declaration checked on its own; 0 when it is wrong (said). */
static enum bpf_map_type decl_kind(struct compiler *c,
				   const struct map_decl *d)
{
	enum bpf_map_type t = BPF_MAP_TYPE_UNSPEC;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, d->kind))
			t = kinds[i].type;
	if (t == BPF_MAP_TYPE_UNSPEC) {
		diag_error(&c->diag, d->kloc, E_MAP,
			   "unknown map type '%s': hash, lruhash, percpuhash, percpulruhash or percpuarray",
			   d->kind);
		return t;
	}
	if (d->nargs != 1) {
		diag_error(&c->diag, d->kloc, E_ARGS,
			   "%s() takes one argument, the maximum number of entries; %d given",
			   d->kind, d->nargs);
		return BPF_MAP_TYPE_UNSPEC;
	}
	if (!d->size_ok || d->size < 1 || d->size > INT32_MAX) {
		diag_error(&c->diag, d->sloc, E_ARGS,
			   "the maximum number of entries must be an integer from 1 to %d",
			   INT32_MAX);
		return BPF_MAP_TYPE_UNSPEC;
	}
	if (t == BPF_MAP_TYPE_PERCPU_ARRAY && d->size != 1) {
		diag_error(&c->diag, d->sloc, E_ARGS,
			   "a percpuarray holds the one value of a map without keys: its size must be 1");
		return BPF_MAP_TYPE_UNSPEC;
	}
	return t;
}

/* Before the passes: every declaration checked, the good ones kept
 * for sema_decl_apply(). */
void sema_decl_read(struct sema *s)
{
	struct compiler *c = s->c;

	for (struct map_decl *d = c->ast->mapdecls; d; d = d->next) {
		const struct map_decl *old = strmap_get(&s->map_decls, d->name);

		if (old) {
			diag_error(&c->diag, d->loc, E_MAP,
				   "%s is declared twice (first at %d:%d)",
				   d->name, old->loc.line, old->loc.col);
			continue;
		}
		strmap_put(&s->map_decls, &c->arena, d->name, d);
		d->size_ok = decl_kind(c, d) != BPF_MAP_TYPE_UNSPEC;
	}
}

/* A map seen for the first time: its declaration, if any. */
void sema_decl_apply(struct sema *s, struct mapinfo *m)
{
	const struct map_decl *d = strmap_get(&s->map_decls, m->name);

	if (!d || !d->size_ok)
		return;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, d->kind))
			m->decl_type = kinds[i].type;
	m->decl_entries = (int)d->size;
	m->decl_loc = d->kloc;
}

/* After the passes: a declared map's use must fit its type.  A per-CPU
 * type holds aggregations (count(), hist(), ...), the others plain
 * values; a percpuarray one value, without keys. */
void sema_decl_check(struct sema *s)
{
	struct compiler *c = s->c;

	for (struct map_decl *d = c->ast->mapdecls; d; d = d->next)
		if (d->size_ok && !strmap_get(&s->map_names, d->name))
			diag_warn(&c->diag, d->loc, "unused map: %s", d->name);
	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];
		bool percpu = type_percpu(m->decl_type);

		if (m->decl_type == BPF_MAP_TYPE_UNSPEC)
			continue;
		if (percpu != (m->agg != AGG_NONE)) {
			diag_error(&c->diag, m->first, E_MAP,
				   "%s is declared %s at %d:%d, which cannot hold %s: %s",
				   m->name, kind_name(m->decl_type),
				   m->decl_loc.line, m->decl_loc.col,
				   sema_agg_name(m->agg),
				   percpu ? "a per-CPU map holds aggregations (count(), sum(), hist(), ...)" :
				   "an aggregation needs a per-CPU map (percpuhash, percpulruhash)");
			continue;
		}
		if (m->decl_type == BPF_MAP_TYPE_PERCPU_ARRAY &&
		    (m->nkeys > 0 || agg_bucketed(m->agg)))
			diag_error(&c->diag, m->first, E_MAP,
				   "%s is declared percpuarray at %d:%d, which holds one value: %s",
				   m->name, m->decl_loc.line, m->decl_loc.col,
				   m->nkeys > 0 ? "it cannot have keys" :
				   "a histogram needs a hash map");
	}
}

/* The declared type and size over the ones finalize_maps() chose. */
void sema_decl_layout(struct mapinfo *m)
{
	if (m->decl_type == BPF_MAP_TYPE_UNSPEC)
		return;
	m->bpf_type = m->decl_type;
	m->max_entries = m->decl_entries;
	if (m->decl_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		m->key_size = 4;	/* an array's index */
}
