/* print.c - maps and values as text, the way bpftrace 0.17 prints them.
 *
 * A map is read whole from the kernel (per-CPU values merged here),
 * sorted by value ascending (ties by key), and printed as
 * "@name[key]: value" lines; hist/lhist maps print one histogram per
 * key.  The rules follow bpftrace 0.17's text output; the notes in
 * format.c record them.  -f json and -f folded are modes of the same
 * printers (json.c, fold.c); --flamegraph draws the maps that fold
 * (flame.c).  One value of a type, in text and JSON, is typed.c's.
 */
#include "out/printer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out/flame.h"
#include "out/fold.h"
#include "out/format.h"
#include "out/json.h"

struct entry {
	uint8_t *key;		/* key bytes (without the bucket index) */
	int64_t v;		/* count, sum, min, max, avg; hist total */
	uint64_t count;		/* avg/stats */
	int64_t total;		/* avg/stats/stddev */
	uint64_t sq[2];		/* stddev: the sum of squares, low first */
	int64_t hsum;		/* hist/lhist with --metrics: their sum */
	int row, nrow;		/* hist/lhist: its rows in table.rows */
	const uint8_t *raw;	/* AGG_NONE value bytes */
};

/* One non-empty bucket of one hist/lhist entry (the map holds a key
 * per bucket).  Entries keep rows, not a whole bucket array, so 100,000
 * keys of one bucket each, or an lhist of 100,000 buckets, cost what
 * the map holds, not keys times buckets. */
struct row {
	int e;			/* entry index, in reading order */
	int b;			/* bucket */
	uint64_t n;
};

struct table {
	struct entry *e;
	int n, cap;
	int nb;			/* buckets per hist entry */
	struct row *rows;
	int nrows, rowcap;
	int *idx;		/* hist/lhist: open hash of entries by key */
	int idxcap;		/* a power of two, or 0 */
};

static int key_len(const struct mapinfo *m)
{
	return agg_bucketed(m->agg) ? m->key_size - 8 : m->key_size;
}

static int nbuckets(const struct mapinfo *m)
{
	if (m->agg == AGG_HIST)
		return hist_nbuckets(m->hist_bits);
	if (m->agg == AGG_LHIST)
		return (int)((m->lh_max - m->lh_min) / m->lh_step + 2);
	if (m->agg == AGG_QUANT)
		return DQUANT_NBUCKETS;
	if (m->agg == AGG_LLQUANT)
		return llq_nbuckets(m);
	return 0;
}

static uint32_t key_hash(const uint8_t *key, int len)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

/* Index every entry in a table of twice the entries' capacity. */
static void idx_rebuild(struct table *tb, int kl)
{
	free(tb->idx);
	tb->idxcap = tb->cap * 2;
	tb->idx = xmalloc(sizeof(int) * (size_t)tb->idxcap);
	memset(tb->idx, 0xff, sizeof(int) * (size_t)tb->idxcap);
	for (int i = 0; i < tb->n; i++) {
		uint32_t h = key_hash(tb->e[i].key, kl);

		while (tb->idx[h & (uint32_t)(tb->idxcap - 1)] >= 0)
			h++;
		tb->idx[h & (uint32_t)(tb->idxcap - 1)] = i;
	}
}

/* Keys are unique in a map, except in hist/lhist maps, whose key
 * holds the bucket too: there one entry gathers its key's buckets,
 * found through the hash (a linear search made 100,000 keys take
 * minutes). */
static struct entry *find_or_add(struct table *tb, const struct mapinfo *m,
				 const uint8_t *key)
{
	int kl = key_len(m);
	uint32_t h = 0;

	if (tb->nb && tb->idxcap) {
		h = key_hash(key, kl);
		for (;; h++) {
			int i = tb->idx[h & (uint32_t)(tb->idxcap - 1)];

			if (i < 0)
				break;
			if (!memcmp(tb->e[i].key, key, (size_t)kl))
				return &tb->e[i];
		}
	}
	if (tb->n == tb->cap) {
		tb->cap = tb->cap ? tb->cap * 2 : 64;
		tb->e = xrealloc(tb->e, sizeof(*tb->e) * (size_t)tb->cap);
		if (tb->nb) {
			idx_rebuild(tb, kl);
			h = key_hash(key, kl);
			while (tb->idx[h & (uint32_t)(tb->idxcap - 1)] >= 0)
				h++;
		}
	}
	if (tb->nb)
		tb->idx[h & (uint32_t)(tb->idxcap - 1)] = tb->n;
	struct entry *e = &tb->e[tb->n++];

	memset(e, 0, sizeof(*e));
	e->key = xmalloc((size_t)(kl ? kl : 1));
	memcpy(e->key, key, (size_t)kl);
	return e;
}

static void add_row(struct table *tb, int e, int b, uint64_t n)
{
	if (tb->nrows == tb->rowcap) {
		tb->rowcap = tb->rowcap ? tb->rowcap * 2 : 64;
		tb->rows = xrealloc(tb->rows, sizeof(*tb->rows) * (size_t)tb->rowcap);
	}
	tb->rows[tb->nrows++] = (struct row){ e, b, n };
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->e != b->e)
		return a->e < b->e ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* Rows grouped by entry, each entry told where its rows are; done
 * before the entries are sorted, while e is still their index. */
static void rows_assign(struct table *tb)
{
	if (!tb->nrows)
		return;
	qsort(tb->rows, (size_t)tb->nrows, sizeof(*tb->rows), row_cmp);
	for (int r = 0; r < tb->nrows; r++) {
		struct entry *e = &tb->e[tb->rows[r].e];

		if (!e->nrow)
			e->row = r;
		e->nrow++;
	}
}

/* The buckets of entry E into B (tb->nb counters). */
static void entry_buckets(const struct table *tb, const struct entry *e,
			  uint64_t *b)
{
	memset(b, 0, sizeof(*b) * (size_t)tb->nb);
	for (int r = e->row; r < e->row + e->nrow; r++)
		b[tb->rows[r].b] += tb->rows[r].n;
}

static void table_free(struct table *tb)
{
	for (int i = 0; i < tb->n; i++) {
		free(tb->e[i].key);
		free((void *)tb->e[i].raw);
	}
	free(tb->e);
	free(tb->rows);
	free(tb->idx);
	memset(tb, 0, sizeof(*tb));
}

/* stddev(): each CPU's {count, sum, squares low, high} into E, the
 * squares added as 128 bits. */
static void stddev_merge(struct entry *e, const uint8_t *val, int ncpu,
			 size_t vstride)
{
	for (int c = 0; c < ncpu; c++) {
		uint64_t w[4];

		memcpy(w, val + (size_t)c * vstride, sizeof(w));
		e->count += w[0];
		e->total += (int64_t)w[1];
		e->sq[0] += w[2];
		e->sq[1] += w[3] + (e->sq[0] < w[2]);
	}
	e->v = fmt_average(e->count, e->total);
}

/* Read and merge map M into TB.  Returns 0 or -errno. */
static int table_read(struct printer *pr, struct mapinfo *m, struct table *tb)
{
	bool percpu = map_percpu(m);
	int ncpu = percpu ? pr->ncpus_possible : 1;
	size_t vstride = percpu ? (size_t)ALIGN_UP(m->value_size, 8)
				: (size_t)m->value_size;
	uint8_t *key = xcalloc(1, (size_t)m->key_size);
	uint8_t *next = xcalloc(1, (size_t)m->key_size);
	uint8_t *val = xcalloc((size_t)ncpu, vstride);
	void *prev = NULL;

	memset(tb, 0, sizeof(*tb));
	tb->nb = nbuckets(m);
	while (bpf_map_get_next_key(m->fd, prev, next) == 0) {
		struct entry *e;

		memcpy(key, next, (size_t)m->key_size);
		prev = key;
		if (bpf_map_lookup_elem(m->fd, key, val) != 0)
			continue;	/* deleted meanwhile */
		e = find_or_add(tb, m, key);
		switch (m->agg) {
		case AGG_TSERIES: {	/* every CPU's buckets: tseries.c */
			uint8_t *raw = xmalloc((size_t)ncpu * vstride);

			memcpy(raw, val, (size_t)ncpu * vstride);
			e->raw = raw;
			break;
		}
		case AGG_NONE: {
			uint8_t *raw = xmalloc((size_t)m->value_size);

			memcpy(raw, val, (size_t)m->value_size);
			e->raw = raw;
			if (m->val && m->val->kind == TY_INT)
				memcpy(&e->v, val, 8);
			break;
		}
		case AGG_COUNT: case AGG_SUM:
			for (int c = 0; c < ncpu; c++) {
				int64_t x;

				memcpy(&x, val + (size_t)c * vstride, 8);
				e->v += x;
			}
			break;
		case AGG_MIN: case AGG_MAX: {
			bool any = false;

			for (int c = 0; c < ncpu; c++) {
				int64_t x;
				uint64_t set;

				memcpy(&x, val + (size_t)c * vstride, 8);
				memcpy(&set, val + (size_t)c * vstride + 8, 8);
				if (!set)
					continue;
				if (!any)
					e->v = x;
				else if (m->val->is_signed ?
					 (m->agg == AGG_MIN ? x < e->v : x > e->v) :
					 (m->agg == AGG_MIN ? (uint64_t)x < (uint64_t)e->v
							    : (uint64_t)x > (uint64_t)e->v))
					e->v = x;
				any = true;
			}
			break;
		}
		case AGG_AVG: case AGG_STATS:
			for (int c = 0; c < ncpu; c++) {
				uint64_t cnt;
				int64_t tot;

				memcpy(&cnt, val + (size_t)c * vstride, 8);
				memcpy(&tot, val + (size_t)c * vstride + 8, 8);
				e->count += cnt;
				e->total += tot;
			}
			e->v = fmt_average(e->count, e->total);
			break;
		case AGG_STDDEV:
			stddev_merge(e, val, ncpu, vstride);
			break;
		case AGG_HIST: case AGG_LHIST: case AGG_QUANT: case AGG_LLQUANT: {
			uint64_t b, sum = 0;

			memcpy(&b, key + m->key_size - 8, 8);
			for (int c = 0; c < ncpu; c++) {
				uint64_t x;

				memcpy(&x, val + (size_t)c * vstride, 8);
				sum += x;
			}
			if (b == (uint64_t)tb->nb && pr->c->hist_sums &&
			    (m->agg == AGG_HIST || m->agg == AGG_LHIST)) {
				e->hsum += (int64_t)sum;	/* --metrics */
				break;
			}
			if (b < (uint64_t)tb->nb && sum)
				add_row(tb, (int)(e - tb->e), (int)b, sum);
			e->v += (int64_t)sum;
			break;
		}
		}
	}
	free(key);
	free(next);
	free(val);
	if (tb->nb)
		rows_assign(tb);
	return 0;
}

/* Compare keys by their typed elements: integers numerically, strings
 * as text. */
static int key_cmp_typed(const struct type *ty, const uint8_t *a,
			 const uint8_t *b)
{
	if (!ty)
		return 0;
	switch (ty->kind) {
	case TY_INT: case TY_KSTACK: case TY_KSYM: case TY_USERNAME:
	case TY_STRERROR: {
		int64_t x = ty->kind == TY_INT ? pr_int_at(ty, a) : 0, y = x;

		if (ty->kind == TY_INT) {
			y = pr_int_at(ty, b);
		} else {
			memcpy(&x, a, 8);
			memcpy(&y, b, 8);
		}
		if (ty->is_signed)
			return x < y ? -1 : x > y;
		return (uint64_t)x < (uint64_t)y ? -1 : (uint64_t)x > (uint64_t)y;
	}
	case TY_STR:
		return strncmp((const char *)a, (const char *)b, (size_t)ty->size);
	case TY_INET: case TY_MAC:	/* family, then the bytes */
	case TY_ARRAY:			/* pton()'s bytes */
		return memcmp(a, b, (size_t)ty_slot_size(ty));
	case TY_BUF: {			/* bytes, then length */
		int r = memcmp(a + 8, b + 8, (size_t)ty->size);

		return r ? r : key_cmp_typed(&ty_u64, a, b);
	}
	case TY_TSTAMP:		/* time, then format */
	case TY_CGPATH:		/* id, then filter */
	case TY_USYM: {		/* address, then process */
		int r = key_cmp_typed(&ty_u64, a, b);

		return r ? r : key_cmp_typed(&ty_u64, a + 8, b + 8);
	}
	case TY_TUPLE:
		for (int i = 0; i < ty->nelem; i++) {
			int r = key_cmp_typed(ty->elem[i], a + ty->off[i],
					      b + ty->off[i]);
			if (r)
				return r;
		}
		return 0;
	default:
		return 0;
	}
}

static int entry_cmp(const void *pa, const void *pb, void *arg)
{
	const struct entry *a = pa, *b = pb;
	const struct mapinfo *m = arg;
	bool sgn = m->agg == AGG_COUNT || m->agg == AGG_HIST ||
		   m->agg == AGG_LHIST || !m->val || m->val->is_signed;

	if (m->agg == AGG_NONE && m->val && m->val->kind != TY_INT)
		return key_cmp_typed(m->key, a->key, b->key);
	if (m->agg == AGG_STATS || m->agg == AGG_AVG) {
		if (a->v != b->v)
			return a->v < b->v ? -1 : 1;
	} else if (a->v != b->v) {
		if (sgn)
			return a->v < b->v ? -1 : 1;
		return (uint64_t)a->v < (uint64_t)b->v ? -1 : 1;
	}
	return key_cmp_typed(m->key, a->key, b->key);
}

/* Keys print without the tuple's parentheses: @m[1, abc].  Stacks in
 * keys are indented by 4, elsewhere by 8, as in bpftrace 0.17. */
static void key_elems(struct printer *pr, FILE *f, const struct mapinfo *m,
		      const uint8_t *key, const char *sep)
{
	if (m->key->kind == TY_TUPLE && !m->key->names) {
		for (int i = 0; i < m->key->nelem; i++) {
			if (i)
				fputs(sep, f);
			pr_text_typed(pr, f, m->key->elem[i], key + m->key->off[i], 4);
		}
	} else {
		pr_text_typed(pr, f, m->key, key, 4);
	}
}

static void print_key(struct printer *pr, const struct mapinfo *m,
		      const uint8_t *key)
{
	if (!m->key)
		return;
	fputc('[', pr->out);
	key_elems(pr, pr->out, m, key, ", ");
	fputc(']', pr->out);
}

/* A key as bpftrace's JSON writes it: its elements as text, joined by
 * commas, as one string. */
static void json_key(struct printer *pr, FILE *f, const struct mapinfo *m,
		     const uint8_t *key)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *s = open_memstream(&buf, &len);

	if (!s)
		return;
	key_elems(pr, s, m, key, ",");
	fclose(s);
	if (buf)
		pr_json_key_text(pr, buf, &len);
	js_str(f, buf ? buf : "", len);
	free(buf);
}

static void print_scalar(FILE *f, const struct mapinfo *m, int64_t v,
			 uint64_t div)
{
	bool sgn = m->agg == AGG_COUNT ? false : (!m->val || m->val->is_signed);

	if (div > 1)
		v = sgn ? v / (int64_t)div : (int64_t)((uint64_t)v / div);
	if (sgn)
		fprintf(f, "%" PRId64, v);
	else
		fprintf(f, "%" PRIu64, (uint64_t)v);
}

/* Buckets from the first non-empty one to the last, as
 * [{"min": a, "max": b, "count": n}, ...]; the open-ended buckets lack
 * min or max.  Counts of log2 histograms are divided by DIV, as in
 * the text mode. */
static void json_hist(FILE *f, const struct mapinfo *m, const uint64_t *b,
		      int nb, uint64_t div)
{
	int lo = -1, hi = -1;

	for (int i = 0; i < nb; i++) {
		if (b[i]) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
	}
	fputc('[', f);
	for (int i = lo; lo >= 0 && i <= hi; i++) {
		uint64_t n = b[i];

		if (i > lo)
			fputs(", ", f);
		fputc('{', f);
		if (m->agg == AGG_HIST) {
			int k = m->hist_bits;
			uint64_t lo2, hi2;

			if (i == 0)
				fputs("\"max\": -1, ", f);
			else if (i <= 2 << k)
				fprintf(f, "\"min\": %d, \"max\": %d, ", i - 1,
					i - 1);
			else
				fprintf(f, "\"min\": %" PRIu64 ", \"max\": %" PRIu64 ", ",
					hist_low(i - 1, k, &lo2) ? lo2 : 0,
					hist_low(i, k, &hi2) ? hi2 - 1 : UINT64_MAX);
			n /= div;
		} else if (i == 0) {
			fprintf(f, "\"max\": %" PRId64 ", ", m->lh_min - 1);
		} else if (i == nb - 1) {
			fprintf(f, "\"min\": %" PRId64 ", ", m->lh_max);
		} else {
			fprintf(f, "\"min\": %" PRId64 ", \"max\": %" PRId64 ", ",
				m->lh_min + (i - 1) * m->lh_step,
				m->lh_min + i * m->lh_step - 1);
		}
		fprintf(f, "\"count\": %" PRIu64 "}", n);
	}
	fputc(']', f);
}

/* One message for the whole map, entries in the text mode's order;
 * nothing for an empty map, as bpftrace. */
static void json_map(struct printer *pr, struct mapinfo *m, struct table *tb,
		     int from, uint64_t div)
{
	FILE *f = pr->out;
	const char *type = "map";

	if (m->agg == AGG_HIST || m->agg == AGG_LHIST)
		type = "hist";
	else if (m->agg == AGG_AVG || m->agg == AGG_STATS)
		type = "stats";
	else if (m->agg == AGG_TSERIES)
		type = "tseries";
	fprintf(f, "{\"type\": \"%s\", \"data\": {", type);
	js_str(f, m->name, strlen(m->name));
	fputs(": ", f);
	if (m->key)
		fputc('{', f);
	for (int i = from; i < tb->n; i++) {
		struct entry *e = &tb->e[i];

		if (i > from)
			fputs(", ", f);
		if (m->key) {
			json_key(pr, f, m, e->key);
			fputs(": ", f);
		}
		switch (m->agg) {
		case AGG_NONE:
			if (m->val && m->val->kind == TY_INT && div > 1)
				print_scalar(f, m, e->v, div);
			else if (m->val)
				pr_json_typed(pr, f, m->val, e->raw);
			break;
		case AGG_STATS:
			fprintf(f, "{\"count\": %" PRIu64 ", \"average\": %" PRId64
				", \"total\": %" PRId64 "}", e->count,
				fmt_average(e->count, e->total), e->total);
			break;
		case AGG_HIST: case AGG_LHIST: {
			uint64_t *b = xmalloc(sizeof(*b) * (size_t)tb->nb);

			entry_buckets(tb, e, b);
			json_hist(f, m, b, tb->nb, div > 1 ? div : 1);
			free(b);
			break;
		}
		case AGG_TSERIES:
			pr_tseries_json(f, m, e->raw, pr->ncpus_possible);
			break;
		default:
			print_scalar(f, m, e->v, div);
		}
	}
	if (m->key)
		fputc('}', f);
	fputs("}}\n", f);
}

static bool has_stack(const struct type *ty, bool user)
{
	if (!ty)
		return false;
	if (ty->kind == TY_KSTACK)
		return ty->suser == user;
	for (int i = 0; ty->kind == TY_TUPLE && i < ty->nelem; i++)
		if (has_stack(ty->elem[i], user))
			return true;
	return false;
}

/* Sums of samples or of amounts are what a flame graph adds up; min,
 * max, avg, stats and histograms do not add, and stay text. */
bool pr_foldable(const struct mapinfo *m)
{
	if (!has_stack(m->key, false) && !has_stack(m->key, true))
		return false;
	return m->agg == AGG_COUNT || m->agg == AGG_SUM ||
	       (m->agg == AGG_NONE && m->val && m->val->kind == TY_INT);
}

/* The frames of one key, gathered by kind: the elements that are not
 * stacks (comm, pid, strings, symbols), the user stacks, the kernel
 * stacks, each in key order; a tuple inside the key counts as its
 * elements. */
struct key_frames {
	struct fold_frames other, user, kern;
	const char *ksuffix;
};

static void key_frames(struct printer *pr, struct key_frames *kf,
		       const struct type *ty, const uint8_t *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	switch (ty->kind) {
	case TY_TUPLE:
		for (int i = 0; i < ty->nelem; i++)
			key_frames(pr, kf, ty->elem[i], p + ty->off[i]);
		return;
	case TY_KSTACK:
		if (ty->suser)
			stk_frames(pr, ty, p, &kf->user, NULL);
		else
			stk_frames(pr, ty, p, &kf->kern, kf->ksuffix);
		return;
	default:
		m = open_memstream(&buf, &len);
		if (!m)
			return;
		pr_text_typed(pr, m, ty, p, 4);
		fclose(m);
		fold_push(&kf->other, buf ? buf : "", len, NULL);
		free(buf);
	}
}

/* Root frames first, then user frames, then kernel frames, as perf
 * and stackcollapse order a stack that crosses into the kernel.
 * Kernel frames are marked "_[k]" only in a key that also holds a user
 * stack, where the mark shows the boundary; a kernel-only graph keeps
 * the plain names.  A key whose stacks are all empty and that has
 * nothing else (@[kstack] of a sample in user space) is "[no stack]",
 * so that the totals stay right. */
int pr_fold(struct printer *pr, struct mapinfo *m, uint64_t top, uint64_t div,
	    struct fold *f)
{
	bool sgn = m->agg != AGG_COUNT && m->val && m->val->is_signed;
	struct table tb;
	int from = 0, neg = 0;

	if (m->fd < 0 || table_read(pr, m, &tb))
		return 0;
	if (top && (uint64_t)tb.n > top) {
		qsort_r(tb.e, (size_t)tb.n, sizeof(*tb.e), entry_cmp, m);
		from = tb.n - (int)top;
	}
	for (int i = from; i < tb.n; i++) {
		struct key_frames kf = { .ksuffix = NULL };
		uint64_t v = (uint64_t)tb.e[i].v;

		if (sgn && tb.e[i].v < 0) {
			neg++;
			continue;
		}
		if (div > 1)
			v /= div;
		if (!v)
			continue;
		if (has_stack(m->key, true) && has_stack(m->key, false))
			kf.ksuffix = "_[k]";
		key_frames(pr, &kf, m->key, tb.e[i].key);
		fold_append(&kf.other, &kf.user);
		fold_append(&kf.other, &kf.kern);
		if (!kf.other.n)
			fold_push(&kf.other, "[no stack]", 10, NULL);
		fold_add(f, &kf.other, v);
		fold_frames_free(&kf.user);
		fold_frames_free(&kf.kern);
	}
	table_free(&tb);
	fold_merge(f);
	return neg;
}

static int nfoldable(const struct compiler *c)
{
	int n = 0;

	for (int i = 0; i < c->nmaps; i++)
		n += pr_foldable(c->maps[i]);
	return n;
}

/* -f folded: a map that folds is its lines, with the map's name as
 * the root frame when the script has several such maps (else their
 * stacks would merge in one graph); any other map prints as text on
 * stderr, where it cannot corrupt the folded stream (a helper map of
 * timestamps would otherwise read as a huge stack). */
static void print_folded(struct printer *pr, struct mapinfo *m, uint64_t top,
			 uint64_t div)
{
	struct fold f = { NULL, 0, 0 };
	FILE *out = pr->out;
	int neg;

	if (!pr_foldable(m)) {
		pr->out = stderr;
		pr->format = OUT_TEXT;
		pr_map(pr, m, top, div);
		pr->out = out;
		pr->format = OUT_FOLDED;
		return;
	}
	neg = pr_fold(pr, m, top, div, &f);
	fold_write(&f, out, nfoldable(pr->c) > 1 ? m->name : NULL);
	fold_free(&f);
	if (neg)
		fprintf(stderr, "sonde: %s: %d entr%s with a negative value left out of the folded output\n",
			m->name, neg, neg == 1 ? "y" : "ies");
}

void pr_map(struct printer *pr, struct mapinfo *m, uint64_t top, uint64_t div)
{
	struct table tb;
	FILE *f = pr->out;
	int from = 0;

	if (pr->format == OUT_FOLDED) {
		print_folded(pr, m, top, div);
		return;
	}
	if (m->fd < 0 || table_read(pr, m, &tb))
		return;
	/* bpftrace 0.17 prints a keyless count() that has no value (never
	 * counted, cleared or deleted) as 0; sum() and the others print as
	 * an empty map, and so does that count() today */
	if (!tb.n && !m->key && m->agg == AGG_COUNT && pr->c->dialect_017) {
		static const uint8_t zero[8];

		find_or_add(&tb, m, zero);
	}
	if (tb.n > 1)
		qsort_r(tb.e, (size_t)tb.n, sizeof(*tb.e), entry_cmp, m);
	if (top && (uint64_t)tb.n > top)
		from = tb.n - (int)top;
	if (pr->format == OUT_JSON) {
		if (tb.n)
			json_map(pr, m, &tb, from, div);
		table_free(&tb);
		return;
	}
	if (!tb.n) {
		/* bpftrace prints an empty map as its trailing blank lines */
		fputs(m->agg == AGG_AVG || m->agg == AGG_STATS ? "\n\n" : "\n", f);
		table_free(&tb);
		return;
	}
	if (m->agg == AGG_TSERIES) {
		for (int i = from; i < tb.n; i++) {
			fputs(m->name, f);
			print_key(pr, m, tb.e[i].key);
			fputs(":\n", f);
			pr_tseries(f, m, tb.e[i].raw, pr->ncpus_possible);
			fputc('\n', f);
		}
		table_free(&tb);
		return;
	}
	if (m->agg == AGG_HIST || m->agg == AGG_LHIST) {
		uint64_t *b = xmalloc(sizeof(*b) * (size_t)tb.nb);

		for (int i = from; i < tb.n; i++) {
			struct entry *e = &tb.e[i];

			fputs(m->name, f);
			print_key(pr, m, e->key);
			/* 0.17 wrote a blank after the colon, today's not */
			fputs(pr->c->dialect_017 ? ": \n" : ":\n", f);
			entry_buckets(&tb, e, b);
			if (m->agg == AGG_HIST)
				fmt_hist_k(f, b, tb.nb, div > 1 ? div : 1,
					   pr->color, m->hist_bits);
			else
				fmt_lhist(f, b, tb.nb, m->lh_min,
					  m->lh_max, m->lh_step, pr->color);
			fputc('\n', f);
		}
		free(b);
		table_free(&tb);
		return;
	}
	for (int i = from; i < tb.n; i++) {
		struct entry *e = &tb.e[i];

		fputs(m->name, f);
		print_key(pr, m, e->key);
		fputs(": ", f);
		switch (m->agg) {
		case AGG_NONE:
			if (m->val && m->val->kind == TY_INT &&
			    !pr_symbol(pr, m->val, 0) && !m->val->edef)
				print_scalar(f, m, e->v, div);
			else if (m->val)
				pr_text_typed(pr, f, m->val, e->raw, 8);
			break;
		case AGG_STATS:
			fmt_stats(f, e->count, e->total);
			break;
		default:
			print_scalar(f, m, e->v, div);
		}
		fputc('\n', f);
	}
	if (m->agg == AGG_STATS || m->agg == AGG_AVG)
		fputc('\n', f);
	table_free(&tb);
}

int pr_map_entries(struct printer *pr, struct mapinfo *m,
		   void (*fn)(void *arg, const struct pr_entry *e), void *arg)
{
	struct table tb;
	uint64_t *b = NULL;

	if (m->fd < 0 || table_read(pr, m, &tb))
		return -1;
	if (tb.nb)
		b = xmalloc(sizeof(*b) * (size_t)tb.nb);
	for (int i = 0; i < tb.n; i++) {
		struct entry *e = &tb.e[i];
		struct pr_entry pe = {
			.key = e->key, .v = e->v, .count = e->count,
			.total = e->total, .raw = e->raw, .b = b, .nb = tb.nb,
			.hsum = e->hsum,
			.sq = { e->sq[0], e->sq[1] },
		};

		if (b)
			entry_buckets(&tb, e, b);
		fn(arg, &pe);
	}
	free(b);
	table_free(&tb);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	const struct mapinfo *x = *(const struct mapinfo *const *)a;
	const struct mapinfo *y = *(const struct mapinfo *const *)b;

	return strcmp(x->name, y->name);
}

/* The maps ordered by name, as bpftrace prints them: malloc'd. */
static struct mapinfo **sorted_maps(const struct compiler *c)
{
	struct mapinfo **sorted = xmalloc(sizeof(*sorted) * (size_t)(c->nmaps + 1));

	if (c->nmaps)
		memcpy(sorted, c->maps, sizeof(*sorted) * (size_t)c->nmaps);
	qsort(sorted, (size_t)c->nmaps, sizeof(*sorted), name_cmp);
	return sorted;
}

void pr_all_maps(struct printer *pr)
{
	/* bpftrace 0.17 always opens the exit output with two newlines
	 * (in JSON too, where sonde leaves them out, and in folded
	 * output, which must hold nothing but stacks) */
	if (pr->format == OUT_TEXT)
		fputs("\n\n", pr->out);
	pr_maps(pr);
}

void pr_maps(struct printer *pr)
{
	struct compiler *c = pr->c;
	struct mapinfo **sorted;

	if (!c->nmaps)
		return;
	sorted = sorted_maps(c);
	for (int i = 0; i < c->nmaps; i++)
		pr_map(pr, sorted[i], 0, 0);
	free(sorted);
}

int pr_flamegraph(struct printer *pr, FILE *f)
{
	struct compiler *c = pr->c;
	struct mapinfo **sorted = sorted_maps(c);
	struct flame_graph *g = xcalloc((size_t)(c->nmaps + 1), sizeof(*g));
	struct fold *folds = xcalloc((size_t)(c->nmaps + 1), sizeof(*folds));
	int n = 0, rc;

	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = sorted[i];

		if (!pr_foldable(m))
			continue;
		pr_fold(pr, m, 0, 0, &folds[n]);
		g[n].title = m->name;
		g[n].unit = m->agg == AGG_COUNT ? "samples" : NULL;
		g[n].stacks = &folds[n];
		n++;
	}
	rc = flame_svg(f, g, n, "Flame graph");
	for (int i = 0; i < n; i++)
		fold_free(&folds[i]);
	free(folds);
	free(g);
	free(sorted);
	return rc;
}

void pr_value(struct printer *pr, const struct type *ty, const void *data)
{
	if (pr->format == OUT_JSON) {
		fputs("{\"type\": \"value\", \"data\": ", pr->out);
		pr_json_typed(pr, pr->out, ty, data);
		fputs("}\n", pr->out);
		return;
	}
	pr_text_typed(pr, pr->out, ty, data, 8);
	fputc('\n', pr->out);
}

/* Every key is read first, then deleted: deleting while walking made
 * each next-key call start again from the map's first bucket, so a
 * clear of 100,000 keys took 20 s.  Keys added meanwhile stay, as
 * they would had they come just after the clear. */
int pr_clear(struct printer *pr, struct mapinfo *m)
{
	size_t ks = (size_t)m->key_size, n = 0, cap = 64;
	uint8_t *keys;
	void *prev = NULL;

	if (m->bpf_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		return pr_zero(pr, m);	/* an array's entries stay */
	keys = xmalloc(ks * cap);

	while (bpf_map_get_next_key(m->fd, prev, keys + n * ks) == 0) {
		prev = keys + n * ks;
		if (++n == cap) {
			cap *= 2;
			keys = xrealloc(keys, ks * cap);
			prev = keys + (n - 1) * ks;
		}
	}
	for (size_t i = 0; i < n; i++)
		bpf_map_delete_elem(m->fd, keys + i * ks);
	free(keys);
	return 0;
}

int pr_zero(struct printer *pr, struct mapinfo *m)
{
	bool percpu = map_percpu(m);
	size_t vsize = percpu ? (size_t)pr->ncpus_possible *
				(size_t)ALIGN_UP(m->value_size, 8)
			      : (size_t)m->value_size;
	uint8_t *k = xcalloc(1, (size_t)m->key_size);
	uint8_t *n = xcalloc(1, (size_t)m->key_size);
	uint8_t *zero = xcalloc(1, vsize);
	void *prev = NULL;

	while (bpf_map_get_next_key(m->fd, prev, n) == 0) {
		memcpy(k, n, (size_t)m->key_size);
		prev = k;
		bpf_map_update_elem(m->fd, k, zero, BPF_EXIST);
	}
	free(k);
	free(n);
	free(zero);
	return 0;
}

void pr_free(struct printer *pr)
{
	stk_free(pr);
	usr_free(pr);
	cgr_free(pr);
	free(pr->dt_printed);
	pr->dt_printed = NULL;
	free(pr->dt_normal);
	pr->dt_normal = NULL;
}
