/* dprint.c - what sonde dtrace prints DTrace's way: an aggregation read
 * from its map into rows (keys and values as out/dtfmt.h takes them),
 * printed by printa() or at exit.  D's variables, the maps without '@',
 * never print. */
#include "out/printer.h"

#include <bpf/bpf.h>
#include <stdlib.h>
#include <string.h>

#include "lang/pp.h"
#include "out/dtfmt.h"

/* The rows of one aggregation, and the memory they point into. */
struct rows {
	struct printer *pr;
	struct mapinfo *m;
	struct dtf_row *v;
	int n, cap;
	struct arena a;		/* keys, strings, buckets */
};

/* A stack's frames as DTrace names them, "module`function+0xoffset"
 * (the kernel's module vmlinux), into *N arena strings: rendered in
 * sonde's perf mode ("ADDR SYM+OFF (PATH)"), then rewritten. */
static const char **stack_frames(struct printer *pr, struct arena *a,
				 const struct type *ty, const void *data, int *n)
{
	struct type perf = *ty;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char **v;

	*n = 0;
	if (!f)
		return NULL;
	perf.smode = SM_PERF;
	pr_text_typed(pr, f, &perf, data, 0);
	fclose(f);
	v = arena_alloc(a, sizeof(*v) * (len / 2 + 1));
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char sym[512], path[512] = "";
		unsigned long long addr, off = 0;
		const char *mod;
		char *plus;

		if (sscanf(line, " %llx %511s (%511[^)])", &addr, sym, path) < 2)
			continue;
		plus = strrchr(sym, '+');
		if (plus) {
			off = strtoull(plus + 1, NULL, 10);
			*plus = 0;
		}
		mod = *path ? (strrchr(path, '/') ? strrchr(path, '/') + 1 : path) :
		      ty->suser ? "" : "vmlinux";
		v[(*n)++] = off ? arena_printf(a, "%s`%s+0x%llx", mod, sym, off) :
				  arena_printf(a, "%s`%s", mod, sym);
	}
	free(buf);
	return v;
}

/* One element of a key, of type TY at P. */
static void key_elem(struct rows *r, struct dtf_key *k, const struct type *ty,
		     const uint8_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (ty->kind == TY_INT) {
		k->kind = DTF_KEY_INT;
		k->i.v = pr_int_at(ty, p);
		k->i.size = (uint8_t)ty->size;
		k->i.is_signed = ty->is_signed;
		return;
	}
	if (ty->kind == TY_KSTACK) {
		k->kind = DTF_KEY_STACK;
		k->stack.frames = stack_frames(r->pr, &r->a, ty, p, &k->stack.n);
		return;
	}
	k->kind = DTF_KEY_STR;
	k->str.size = 0;
	if (ty->kind == TY_STR) {
		k->str.s = arena_strndup(&r->a, (const char *)p, strnlen((const char *)p,
							(size_t)ty->size));
		return;
	}
	/* anything else (a stack, a symbol, an address) as its text */
	f = open_memstream(&buf, &len);
	if (!f) {
		k->str.s = "";
		return;
	}
	pr_text_typed(r->pr, f, ty, p, 0);
	fclose(f);
	k->str.s = arena_strdup(&r->a, buf ? buf : "");
	free(buf);
}

/* E's buckets, counted as unsigned in the map, as DTrace's signed
 * counts (increments may be negative in DTrace). */
static const int64_t *buckets(struct rows *r, const struct pr_entry *e)
{
	int64_t *b = arena_alloc(&r->a, sizeof(*b) * (size_t)(e->nb + 1));

	for (int i = 0; i < e->nb; i++)
		b[i] = (int64_t)e->b[i];
	return b;
}

/* sonde's hist() called from D (bucket 0 the negatives, 1 the zeros,
 * b >= 2 the values [2^(b-2), 2^(b-1))) in DTrace's quantize order,
 * the negatives all at -1: D's own quantize() keeps DTrace's buckets. */
static const int64_t *hist_as_quantize(struct rows *r, const struct pr_entry *e)
{
	int64_t *q = arena_alloc(&r->a, sizeof(*q) * DTF_QUANT_NBUCKETS);

	for (int b = 0; b < e->nb; b++) {
		int i = b == 0 ? dtf_quant_index(-1) :
			b == 1 ? DTF_QUANT_ZERO : DTF_QUANT_ZERO - 1 + b;

		if (i >= 0 && i < DTF_QUANT_NBUCKETS)
			q[i] += (int64_t)e->b[b];
	}
	return q;
}

static void add(void *arg, const struct pr_entry *e)
{
	struct rows *r = arg;
	struct mapinfo *m = r->m;
	struct dtf_row *row;
	struct dtf_key *keys = NULL;
	int nkeys = 0;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->v = xrealloc(r->v, sizeof(*r->v) * (size_t)r->cap);
	}
	row = &r->v[r->n++];
	memset(row, 0, sizeof(*row));
	if (m->key) {
		bool tuple = m->key->kind == TY_TUPLE && !m->key->names;

		nkeys = tuple ? m->key->nelem : 1;
		keys = arena_alloc(&r->a, sizeof(*keys) * (size_t)nkeys);
		for (int i = 0; i < nkeys; i++)
			key_elem(r, &keys[i], tuple ? m->key->elem[i] : m->key,
				 e->key + (tuple ? m->key->off[i] : 0));
	}
	row->keys = keys;
	row->nkeys = nkeys;
	switch (m->agg) {
	case AGG_COUNT: row->val.kind = DTF_COUNT; row->val.n = e->v; break;
	case AGG_SUM: row->val.kind = DTF_SUM; row->val.n = e->v; break;
	case AGG_MIN: row->val.kind = DTF_MIN; row->val.n = e->v; break;
	case AGG_MAX: row->val.kind = DTF_MAX; row->val.n = e->v; break;
	case AGG_AVG: case AGG_STATS:
		row->val.kind = DTF_AVG;
		row->val.avg.count = e->count;
		row->val.avg.sum = e->total;
		break;
	case AGG_STDDEV:
		row->val.kind = DTF_STDDEV;
		row->val.sd.count = e->count;
		row->val.sd.sum = e->total;
		row->val.sd.sq[0] = e->sq[0];
		row->val.sd.sq[1] = e->sq[1];
		break;
	case AGG_HIST:
		row->val.kind = DTF_QUANTIZE;
		row->val.hist.b = hist_as_quantize(r, e);
		break;
	case AGG_QUANT:		/* the map's buckets are DTrace's */
		row->val.kind = DTF_QUANTIZE;
		row->val.hist.b = buckets(r, e);
		break;
	case AGG_LHIST:
		row->val.kind = DTF_LQUANTIZE;
		dtf_lquant_init(&row->val.hist.lq, m->lh_min, m->lh_max,
				m->lh_step);
		row->val.hist.b = buckets(r, e);
		break;
	case AGG_LLQUANT:
		row->val.kind = DTF_LLQUANTIZE;
		dtf_llquant_init(&row->val.hist.llq, m->llq_factor, m->llq_low,
				 m->llq_high, m->llq_steps);
		row->val.hist.b = buckets(r, e);
		break;
	default:	/* a plain value: as a sum */
		row->val.kind = DTF_SUM;
		row->val.n = e->v;
	}
}

static int read_rows(struct printer *pr, struct mapinfo *m, struct rows *r,
		     struct dtf_agg *agg)
{
	memset(r, 0, sizeof(*r));
	r->pr = pr;
	r->m = m;
	if (pr_map_entries(pr, m, add, r))
		return -1;
	memset(agg, 0, sizeof(*agg));
	agg->rows = r->v;
	agg->nrows = r->n;
	agg->normal = pr->dt_normal && pr->dt_normal[m->id] ?
		      pr->dt_normal[m->id] : 1;
	agg->sort = pr->dt_sort;
	return 0;
}

static void rows_free(struct rows *r)
{
	free(r->v);
	arena_free(&r->a);
}

void pr_dt_normalize(struct printer *pr, const struct mapinfo *m, uint64_t n)
{
	if (!pr->dt_normal)
		pr->dt_normal = xcalloc((size_t)pr->c->nmaps + 1, sizeof(uint64_t));
	pr->dt_normal[m->id] = n ? n : 1;
}

static void mark(struct printer *pr, const struct mapinfo *m)
{
	if (!pr->dt_printed)
		pr->dt_printed = xcalloc((size_t)pr->c->nmaps + 1, 1);
	pr->dt_printed[m->id] = true;
}

/* stack() and ustack() as actions: a frame a line, indented by 14. */
static void stack_text(struct printer *pr, FILE *out, const struct type *ty,
		       const void *data)
{
	struct arena a = { 0 };
	int n;
	const char **v = stack_frames(pr, &a, ty, data, &n);

	fputc('\n', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%14s%s\n", "", v[i]);
	arena_free(&a);
}

void pr_dt_trace(struct printer *pr, const struct type *ty, int size,
		 const void *data)
{
	if (ty->kind == TY_KSTACK) {
		stack_text(pr, pr->out, ty, data);
		return;
	}
	if (ty->kind == TY_INT) {
		dtf_trace_int(pr->out, pr_int_at(ty, data), size ? size : ty->size,
			      ty->is_signed, pr->dt_quiet);
	} else if (ty->kind == TY_STR) {
		char *s = strndup(data, (size_t)ty->size);

		dtf_trace_str(pr->out, s ? s : "", pr->dt_quiet);
		free(s);
	} else if (ty->kind == TY_KSYM || ty->kind == TY_USYM) {
		/* sym(), mod(), ...: as dt_print_sym() formats them */
		char *s = NULL;
		size_t n = 0;
		FILE *m = open_memstream(&s, &n);

		if (!m)
			return;
		pr_text_typed(pr, m, ty, data, 0);
		fclose(m);
		fprintf(pr->out, "  %-50s", s);
		free(s);
	} else if (ty->kind == TY_BUF) {	/* tracemem(): a dump */
		uint64_t len;

		memcpy(&len, data, 8);
		dtf_rawbytes(pr->out, (const char *)data + 8,
			     len < (uint64_t)ty->size ? (size_t)len : (size_t)ty->size);
	} else {
		if (!pr->dt_quiet)
			fputc(' ', pr->out);
		pr_text_typed(pr, pr->out, ty, data, 0);
	}
}

void pr_dt_printa(struct printer *pr, struct mapinfo *m, const char *fmt)
{
	struct rows r;
	struct dtf_agg agg;

	mark(pr, m);
	if (read_rows(pr, m, &r, &agg))
		return;
	if (fmt)
		dtf_printa_fmt(pr->out, fmt, &agg);
	else
		dtf_printa(pr->out, &agg);
	rows_free(&r);
}

void pr_dt_printa_join(struct printer *pr, struct mapinfo **maps, int n,
		       const char *fmt)
{
	struct rows *r = xcalloc((size_t)n, sizeof(*r));
	struct dtf_agg *aggs = xcalloc((size_t)n, sizeof(*aggs));
	int ok = 0;

	for (; ok < n; ok++) {
		mark(pr, maps[ok]);
		if (read_rows(pr, maps[ok], &r[ok], &aggs[ok]))
			break;
	}
	if (ok == n)
		dtf_printa_join(pr->out, fmt, aggs, n);
	for (int i = 0; i < ok; i++)
		rows_free(&r[i]);
	free(r);
	free(aggs);
}

/* One aggregation row for trunc(): its key and the value it sorts by. */
struct trunc_row {
	uint8_t *key;
	long double v;
};

struct trunc_rows {
	struct trunc_row *v;
	int n, cap;
	size_t ksize;
	enum agg_kind agg;
};

static void trunc_add(void *arg, const struct pr_entry *e)
{
	struct trunc_rows *t = arg;
	struct trunc_row *r;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->v = xrealloc(t->v, sizeof(*t->v) * (size_t)t->cap);
	}
	r = &t->v[t->n++];
	r->key = xmalloc(t->ksize ? t->ksize : 1);
	memcpy(r->key, e->key, t->ksize);
	if (agg_bucketed(t->agg)) {	/* the count of its values */
		r->v = 0;
		for (int i = 0; i < e->nb; i++)
			r->v += (long double)e->b[i];
	} else if (t->agg == AGG_AVG || t->agg == AGG_STDDEV) {
		r->v = e->count ? (long double)e->total / (long double)e->count : 0;
	} else {
		r->v = (long double)e->v;
	}
}

static int trunc_cmp(const void *a, const void *b)
{
	const struct trunc_row *x = a, *y = b;

	return x->v < y->v ? 1 : x->v > y->v ? -1 : 0;
}

void pr_dt_trunc(struct printer *pr, struct mapinfo *m, int64_t n)
{
	struct trunc_rows t = { .agg = m->agg };
	bool bucketed = agg_bucketed(m->agg);
	size_t ks = (size_t)m->key_size;
	int64_t keep = n < 0 ? -n : n;

	t.ksize = bucketed ? ks - 8 : ks;
	if (pr_map_entries(pr, m, trunc_add, &t) == 0 && t.n > keep) {
		/* the N largest (n > 0) or smallest (n < 0) stay */
		qsort(t.v, (size_t)t.n, sizeof(*t.v), trunc_cmp);
		for (int i = 0; i < t.n; i++) {
			bool stays = n > 0 ? i < keep : i >= t.n - keep;
			uint8_t *k = xmalloc(ks), *next = xmalloc(ks);
			bool more;

			if (stays) {
				free(k);
				free(next);
				continue;
			}
			if (!bucketed) {
				bpf_map_delete_elem(m->fd, t.v[i].key);
				free(k);
				free(next);
				continue;
			}
			/* each bucket of the key: the key, then its index */
			more = bpf_map_get_next_key(m->fd, NULL, next) == 0;
			while (more) {
				memcpy(k, next, ks);
				more = bpf_map_get_next_key(m->fd, k, next) == 0;
				if (!memcmp(k, t.v[i].key, t.ksize))
					bpf_map_delete_elem(m->fd, k);
			}
			free(k);
			free(next);
		}
	}
	for (int i = 0; i < t.n; i++)
		free(t.v[i].key);
	free(t.v);
}

void pr_dt_all_aggs(struct printer *pr)
{
	struct compiler *c = pr->c;

	fputc('\n', pr->out);	/* dtrace's, even when quiet */
	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];
		struct rows r;
		struct dtf_agg agg;

		if (m->name[0] != '@' || m->agg == AGG_NONE ||
		    (pr->dt_printed && pr->dt_printed[m->id]))
			continue;
		if (read_rows(pr, m, &r, &agg))
			continue;
		dtf_agg(pr->out, &agg);
		rows_free(&r);
	}
}

void pr_dt_setopt(struct printer *pr, const struct event_spec *e,
		  const uint8_t *rec)
{
	char name[64] = "", value[64] = "";
	bool on;
	long n;

	for (int i = 0; i < e->nargs && i < 2; i++)
		snprintf(i ? value : name, sizeof(name), "%.*s",
			 e->args[i].ty->size, (const char *)rec + e->args[i].off);
	on = e->nargs < 2 || d_option_on(value);
	n = strtol(value, NULL, 10);
	if (!strcmp(name, "aggsortkey"))
		pr->dt_sort.key = on;
	else if (!strcmp(name, "aggsortrev"))
		pr->dt_sort.rev = on;
	else if (!strcmp(name, "aggsortpos"))
		pr->dt_sort.pos = n < 0 ? 0 : (int)n;
	else if (!strcmp(name, "aggsortkeypos"))
		pr->dt_sort.keypos = n < 0 ? 0 : (int)n;
	else if (!strcmp(name, "quiet"))
		pr->dt_quiet = on;
	else if (strcmp(name, "switchrate") && strcmp(name, "aggrate") &&
		 strcmp(name, "statusrate") && strcmp(name, "cleanrate") &&
		 strcmp(name, "flowindent") && strcmp(name, "rawbytes"))
		fprintf(stderr, "dtrace: couldn't set option \"%s\" to \"%s\": Invalid option name\n",
			name, value);
}
