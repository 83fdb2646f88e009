/* dtfmt_agg.c - DTrace's aggregation rows: the value and key columns of
 * dt_print_datum(), the row order of dtrace_aggregate_walk_sorted(), the
 * default printing at exit and printa() with and without a format
 * (dt_printf.c's dt_printf_format()).  Declared in out/dtfmt.h. */
#include "out/dtfmt.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The frames of a stack key or %k indent this far (DTrace's default
 * stackindent). */
#define STACK_INDENT 14

/* A key string's record as DTrace stores it: SIZE bytes, the string then
 * NULs.  Caller frees. */
static unsigned char *str_record(const struct dtf_key *k, size_t *size)
{
	size_t len = strlen(k->str.s), n = k->str.size ? k->str.size : len + 1;
	unsigned char *rec = calloc(1, n);

	if (!rec)
		return NULL;
	memcpy(rec, k->str.s, len < n ? len : n);
	*size = n;
	return rec;
}

/* FMT below is "%s" or one printa() conversion rebuilt for the argument
 * type at hand (cfmt()), which -Wformat-nonliteral cannot see. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static void stack_lines(FILE *fp, const struct dtf_key *k, int indent,
			const char *fmt)
{
	int i;

	fputc('\n', fp);
	for (i = 0; i < k->stack.n; i++) {
		fprintf(fp, "%*s", indent, "");
		fprintf(fp, fmt, k->stack.frames[i]);
		fputc('\n', fp);
	}
}

#pragma GCC diagnostic pop

void dtf_key(FILE *fp, const struct dtf_key *k)
{
	unsigned char *rec;
	size_t n;

	switch (k->kind) {
	case DTF_KEY_INT:
		/* dt_print_datum() reads the record as unsigned and prints
		 * it with %d: 1- and 2-byte keys show unsigned, 4-byte keys
		 * signed */
		if (k->i.size == 1)
			fprintf(fp, " %3d", (int)(uint8_t)k->i.v);
		else if (k->i.size == 2)
			fprintf(fp, " %5d", (int)(uint16_t)k->i.v);
		else if (k->i.size == 4)
			fprintf(fp, " %8d", (int)(int32_t)(uint32_t)k->i.v);
		else
			fprintf(fp, " %16lld", (long long)k->i.v);
		break;
	case DTF_KEY_STR:
		rec = str_record(k, &n);
		if (rec)
			dtf_bytes(fp, rec, n, 50, 0);
		free(rec);
		break;
	case DTF_KEY_STACK:
		stack_lines(fp, k, STACK_INDENT, "%s");
		break;
	}
}

void dtf_value(FILE *fp, const struct dtf_value *v, uint64_t normal)
{
	int64_t avg = 0;

	if (normal == 0)
		normal = 1;
	switch (v->kind) {
	case DTF_COUNT:
	case DTF_SUM:
	case DTF_MIN:
	case DTF_MAX:
		fprintf(fp, " %16lld", (long long)((uint64_t)v->n / normal));
		break;
	case DTF_AVG:
		if (v->avg.count)
			avg = v->avg.sum / (int64_t)normal /
			      (int64_t)v->avg.count;
		fprintf(fp, " %16lld", (long long)avg);
		break;
	case DTF_STDDEV:
		fprintf(fp, " %16llu",
			(unsigned long long)dtf_stddev_value(&v->sd, normal));
		break;
	case DTF_QUANTIZE:
		dtf_quantize(fp, v->hist.b, normal);
		break;
	case DTF_LQUANTIZE:
		dtf_lquantize(fp, &v->hist.lq, v->hist.b, normal);
		break;
	case DTF_LLQUANTIZE:
		dtf_llquantize(fp, &v->hist.llq, v->hist.b, normal);
		break;
	}
}

void dtf_row(FILE *fp, const struct dtf_row *r, uint64_t normal)
{
	int i;

	for (i = 0; i < r->nkeys; i++)
		dtf_key(fp, &r->keys[i]);
	dtf_value(fp, &r->val, normal);
	fputc('\n', fp);
}

/* ---- DTrace's row order ---- */

static int cmp3(long double a, long double b)
{
	return a < b ? -1 : a > b;
}

/* dt_aggregate_lquantizedsum(): each bucket weighs its lower bound, the
 * underflow base - 1, the overflow its bound + 1. */
static long double lq_sum(const struct dtf_lquant *lq, const int64_t *b)
{
	long double t = (long double)b[0] * (lq->base - 1);
	int64_t base = lq->base;
	int i;

	for (i = 0; i < lq->levels; i++, base += lq->step)
		t += (long double)b[i + 1] * base;
	return t + (long double)b[lq->levels + 1] * (base + 1);
}

/* The count of the bucket holding zero, the tie-break of two lquantize()
 * rows of equal sum. */
static int64_t lq_zero(const struct dtf_lquant *lq, const int64_t *b)
{
	int64_t base = lq->base;
	int i;

	if (base - 1 == 0)
		return b[0];
	for (i = 0; i < lq->levels; i++, base += lq->step)
		if (base == 0)
			return b[i + 1];
	return base + 1 == 0 ? b[lq->levels + 1] : 0;
}

/* dt_aggregate_llquantizedsum(): each labelled bucket weighs its label,
 * the negative ones minus it, the two outer ones +-factor^(high+1),
 * bin0 and the ghost buckets nothing. */
static long double llq_sum(const struct dtf_llquant *lq, const int64_t *b)
{
	int bin0 = dtf_llquant_zero(lq), pos;
	long double t = 0;

	for (pos = 1; pos <= bin0; pos++)
		t += (long double)dtf_llquant_label(lq, pos) *
		     (long double)(b[bin0 + pos] - b[bin0 - pos]);
	return t;
}

static int hist_cmp(const struct dtf_value *l, const struct dtf_value *r)
{
	long double ls = 0, rs = 0;
	int64_t lz = 0, rz = 0;
	int i, c;

	switch (l->kind) {
	case DTF_QUANTIZE:
		for (i = 0; i < DTF_QUANT_NBUCKETS; i++) {
			ls += (long double)dtf_quant_value(i) * l->hist.b[i];
			rs += (long double)dtf_quant_value(i) * r->hist.b[i];
		}
		lz = l->hist.b[DTF_QUANT_ZERO];
		rz = r->hist.b[DTF_QUANT_ZERO];
		break;
	case DTF_LQUANTIZE:
		ls = lq_sum(&l->hist.lq, l->hist.b);
		rs = lq_sum(&r->hist.lq, r->hist.b);
		lz = lq_zero(&l->hist.lq, l->hist.b);
		rz = lq_zero(&r->hist.lq, r->hist.b);
		break;
	default:
		ls = llq_sum(&l->hist.llq, l->hist.b);
		rs = llq_sum(&r->hist.llq, r->hist.b);
		lz = l->hist.b[dtf_llquant_zero(&l->hist.llq)];
		rz = r->hist.b[dtf_llquant_zero(&r->hist.llq)];
		break;
	}
	c = cmp3(ls, rs);
	return c ? c : (lz > rz) - (lz < rz);
}

static int val_cmp(const struct dtf_value *l, const struct dtf_value *r)
{
	int64_t a, b;
	uint64_t x, y;

	switch (l->kind) {
	case DTF_AVG:
		a = l->avg.count ? l->avg.sum / (int64_t)l->avg.count : 0;
		b = r->avg.count ? r->avg.sum / (int64_t)r->avg.count : 0;
		return (a > b) - (a < b);
	case DTF_STDDEV:
		x = dtf_stddev_value(&l->sd, 1);
		y = dtf_stddev_value(&r->sd, 1);
		return (x > y) - (x < y);
	case DTF_QUANTIZE:
	case DTF_LQUANTIZE:
	case DTF_LLQUANTIZE:
		return hist_cmp(l, r);
	default:
		return (l->n > r->n) - (l->n < r->n);
	}
}

static uint64_t key_bits(const struct dtf_key *k)
{
	if (k->i.size == 0 || k->i.size >= 8)
		return (uint64_t)k->i.v;
	return (uint64_t)k->i.v & ((1ULL << (k->i.size * 8)) - 1);
}

/* dt_aggregate_keycmp(): integers as unsigned of their size (so -1 sorts
 * last), strings bytewise, stacks frame by frame (DTrace compares their
 * addresses; text is what we have). */
static int key_cmp(const struct dtf_key *l, const struct dtf_key *r)
{
	uint64_t a, b;
	int i, c;

	if (l->kind != r->kind)
		return (l->kind > r->kind) - (l->kind < r->kind);
	switch (l->kind) {
	case DTF_KEY_INT:
		a = key_bits(l);
		b = key_bits(r);
		return (a > b) - (a < b);
	case DTF_KEY_STR:
		c = strcmp(l->str.s, r->str.s);
		return (c > 0) - (c < 0);
	case DTF_KEY_STACK:
		for (i = 0; i < l->stack.n && i < r->stack.n; i++) {
			c = strcmp(l->stack.frames[i], r->stack.frames[i]);
			if (c)
				return (c > 0) - (c < 0);
		}
		return (l->stack.n > r->stack.n) - (l->stack.n < r->stack.n);
	}
	return 0;
}

/* The keys of two rows, one by one from key FROM on (then the ones
 * before it), then their number. */
static int keys_cmp_from(const struct dtf_row *l, const struct dtf_row *r,
			 int from)
{
	int n = l->nkeys < r->nkeys ? l->nkeys : r->nkeys, c = 0;

	if (from < 0 || from >= n)
		from = 0;
	for (int i = 0; !c && i < n; i++)
		c = key_cmp(&l->keys[(from + i) % n], &r->keys[(from + i) % n]);
	return c ? c : (l->nkeys > r->nkeys) - (l->nkeys < r->nkeys);
}

static int keys_cmp(const struct dtf_row *l, const struct dtf_row *r)
{
	return keys_cmp_from(l, r, 0);
}

static int row_cmp(const void *lp, const void *rp, void *arg)
{
	const struct dtf_agg *a = arg;
	const struct dtf_row *l = &a->rows[*(const int *)lp];
	const struct dtf_row *r = &a->rows[*(const int *)rp];
	int c;

	if (a->sort.key) {
		c = keys_cmp_from(l, r, a->sort.keypos);
		if (!c)
			c = val_cmp(&l->val, &r->val);
	} else {
		c = val_cmp(&l->val, &r->val);
		if (!c)
			c = keys_cmp_from(l, r, a->sort.keypos);
	}
	return a->sort.rev ? -c : c;
}

int dtf_agg_sort(const struct dtf_agg *a, int *order)
{
	int i;

	for (i = 0; i < a->nrows; i++)
		order[i] = i;
	qsort_r(order, (size_t)a->nrows, sizeof(*order), row_cmp, (void *)a);
	return 0;
}

/* The row indexes of A in DTrace's order, malloc'd; NULL when out of
 * memory (an empty aggregation gets a one-int array). */
static int *sorted(const struct dtf_agg *a)
{
	int *order = malloc(sizeof(*order) * (size_t)(a->nrows ? a->nrows : 1));

	if (order)
		dtf_agg_sort(a, order);
	return order;
}

int dtf_agg(FILE *fp, const struct dtf_agg *a)
{
	int *order = sorted(a), i;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < a->nrows; i++)
		dtf_row(fp, &a->rows[order[i]], a->normal);
	free(order);
	return 0;
}

int dtf_exit(FILE *fp, const struct dtf_agg *aggs, int n)
{
	int i, err;

	fputc('\n', fp);
	for (i = 0; i < n; i++)
		if ((err = dtf_agg(fp, &aggs[i])) < 0)
			return err;
	return 0;
}

int dtf_printa(FILE *fp, const struct dtf_agg *a)
{
	fputc('\n', fp);
	return dtf_agg(fp, a);
}

/* ---- printa() with a format ---- */

/* One conversion of a printa() format. */
struct conv {
	char flags[8];		/* of "#0- +'" */
	int width, prec;	/* -1 when absent */
	int agg;		/* %@: the value, not a key */
	int dynw, dynp;		/* '*' width, ".*" precision: from a key */
	int h;			/* 1 for h, 2 for hh */
	char c;			/* the conversion letter */
};

/* Parse the conversion after a '%' at *P; DTrace accepts its flags, '@',
 * the width and the precision in any order before the letter.  Returns
 * 0, or -1 for a format that ends inside it. */
static int parse_conv(const char **p, struct conv *cv)
{
	const char *s = *p;
	size_t nf = 0;

	memset(cv, 0, sizeof(*cv));
	cv->width = cv->prec = -1;
	for (;; s++) {
		if (*s && strchr("#0- +'", *s)) {
			if (nf + 1 < sizeof(cv->flags) && !strchr(cv->flags, *s))
				cv->flags[nf++] = *s;
		} else if (*s == '@') {
			cv->agg = 1;
		} else if (*s >= '1' && *s <= '9') {
			cv->width = (int)strtol(s, (char **)&s, 10);
			s--;
		} else if (*s == '*') {
			cv->dynw = 1;
		} else if (*s == '.' && s[1] == '*') {
			cv->dynp = 1;
			s++;
		} else if (*s == '.') {
			cv->prec = (int)strtol(s + 1, (char **)&s, 10);
			s--;
		} else {
			break;
		}
	}
	for (; *s == 'h' || *s == 'l' || *s == 'L' || *s == 'z' ||
	       *s == 'j' || *s == 't'; s++)
		cv->h += *s == 'h';
	if (!*s)
		return -1;
	cv->c = *s;
	*p = s + 1;
	return 0;
}

/* The printf format for CV with LEN between it and the letter LETTER. */
static void cfmt(char *f, size_t n, const struct conv *cv, const char *len,
		 char letter)
{
	int o = snprintf(f, n, "%%%s", cv->flags);

	if (cv->width >= 0)
		o += snprintf(f + o, n - (size_t)o, "%d", cv->width);
	if (cv->prec >= 0)
		o += snprintf(f + o, n - (size_t)o, ".%d", cv->prec);
	snprintf(f + o, n - (size_t)o, "%s%c", len, letter);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* U, whose meaningful bits are MASK, sign-extended from its top bit. */
static int64_t sext(uint64_t u, uint64_t mask)
{
	if (mask != ~0ULL && (u & ~(mask >> 1) & mask))
		u |= ~mask;
	return (int64_t)u;
}

/* An integer of SIZE bytes through a d/i/u/o/x/X/c conversion, as
 * dt_printf.c's pfprint_sint()/pfprint_uint() read the record: signed
 * and sign-extended under d and i when IS_SIGNED, otherwise unsigned of
 * its size (so %x of a 4-byte -2 is fffffffe); an h or hh then narrows
 * it as printf(3) does. */
static void put_int(FILE *fp, const struct conv *cv, int64_t v, int size,
		    int is_signed)
{
	uint64_t rmask = size >= 8 ? ~0ULL : (1ULL << (size * 8)) - 1;
	uint64_t tmask = cv->h == 1 ? 0xffff : cv->h >= 2 ? 0xff : ~0ULL;
	uint64_t u = (uint64_t)v & rmask;
	char f[48], c = cv->c;

	if (c == 'Y' || c == 'T') {	/* a walltimestamp */
		char t[64];

		cfmt(f, sizeof(f), cv, "", 's');
		fprintf(fp, f, dtf_walltime(t, sizeof(t), v, c));
		return;
	}
	/* DTrace refuses other conversions of an integer when it compiles
	 * the format; print them as %d rather than pass the wrong type */
	if (!strchr("diuoxXc", c))
		c = 'd';
	if (c == 'c') {
		cfmt(f, sizeof(f), cv, "", 'c');
		fprintf(fp, f, (int)(unsigned char)u);
	} else if ((c == 'd' || c == 'i') && is_signed) {
		cfmt(f, sizeof(f), cv, "ll", 'd');
		fprintf(fp, f, (long long)sext((uint64_t)sext(u, rmask) & tmask,
					       tmask));
	} else {
		cfmt(f, sizeof(f), cv, "ll", c == 'd' || c == 'i' ? 'u' : c);
		fprintf(fp, f, (unsigned long long)(u & tmask));
	}
}

/* The value under a %@ conversion.  Only count() is unsigned to DTrace;
 * avg() divides by the normal and count as unsigned (pfprint_average()),
 * the others as the conversion reads them: signed under d and i. */
static void put_value(FILE *fp, const struct conv *cv,
		      const struct dtf_value *v, uint64_t normal)
{
	uint64_t u;

	switch (v->kind) {
	case DTF_QUANTIZE:
	case DTF_LQUANTIZE:
	case DTF_LLQUANTIZE:
		dtf_value(fp, v, normal);
		return;
	case DTF_AVG:
		u = v->avg.count ? (uint64_t)v->avg.sum / normal / v->avg.count
				 : 0;
		break;
	case DTF_STDDEV:
		u = dtf_stddev_value(&v->sd, normal);
		break;
	default:
		if (v->kind != DTF_COUNT && (cv->c == 'd' || cv->c == 'i'))
			u = (uint64_t)(v->n / (int64_t)normal);
		else
			u = (uint64_t)v->n / normal;
		break;
	}
	put_int(fp, cv, (int64_t)u, 8, v->kind != DTF_COUNT);
}

static void put_key(FILE *fp, const struct conv *cv, const struct dtf_key *k)
{
	struct conv s = *cv;
	char f[48];

	switch (k->kind) {
	case DTF_KEY_INT:
		put_int(fp, cv, k->i.v, k->i.size ? k->i.size : 8,
			k->i.is_signed);
		break;
	case DTF_KEY_STR:
		cfmt(f, sizeof(f), cv, "", 's');
		fprintf(fp, f, k->str.s);
		break;
	case DTF_KEY_STACK:
		/* %-Nk indents the frames N columns; %Nk pads each one */
		if (strchr(cv->flags, '-')) {
			s.width = -1;
			cfmt(f, sizeof(f), &s, "", 's');
			stack_lines(fp, k, cv->width > 0 ? cv->width : 0, f);
		} else {
			cfmt(f, sizeof(f), cv, "", 's');
			stack_lines(fp, k, 0, f);
		}
		break;
	}
}

#pragma GCC diagnostic pop

/* One row through FMT: the %@ conversions take VALS in turn (the last
 * again once they run out, as dt_printf_format() does), the others
 * the keys of KEYROW. */
static void printa_row(FILE *fp, const char *fmt, const struct dtf_row *keyrow,
		       const struct dtf_value *const *vals,
		       const uint64_t *normals, int nvals)
{
	const char *p = fmt;
	struct conv cv;
	int ki = 0, vi = 0;

	while (*p) {
		if (*p != '%') {
			fputc(*p++, fp);
			continue;
		}
		p++;
		if (*p == '%') {
			fputc(*p++, fp);
			continue;
		}
		if (parse_conv(&p, &cv) < 0)
			return;
		/* a '*' takes an integer key (sema checked it), as C's
		 * printf takes an int: a negative width left-aligns */
		if (cv.dynw && ki < keyrow->nkeys) {
			cv.width = (int)keyrow->keys[ki++].i.v;
			if (cv.width < 0 && !strchr(cv.flags, '-') &&
			    strlen(cv.flags) + 1 < sizeof(cv.flags))
				strcat(cv.flags, "-");
			if (cv.width < 0)
				cv.width = -cv.width;
		}
		if (cv.dynp && ki < keyrow->nkeys) {
			cv.prec = (int)keyrow->keys[ki++].i.v;
			if (cv.prec < 0)
				cv.prec = -1;
		}
		if (cv.agg) {
			put_value(fp, &cv, vals[vi], normals[vi]);
			if (vi < nvals - 1)
				vi++;
		} else if (ki < keyrow->nkeys) {
			put_key(fp, &cv, &keyrow->keys[ki++]);
		}
	}
}

int dtf_printa_fmt(FILE *fp, const char *fmt, const struct dtf_agg *a)
{
	uint64_t normal = a->normal ? a->normal : 1;
	const struct dtf_value *v;
	int *order = sorted(a), i;

	if (!order)
		return -ENOMEM;
	for (i = 0; i < a->nrows; i++) {
		v = &a->rows[order[i]].val;
		printa_row(fp, fmt, &a->rows[order[i]], &v, &normal, 1);
	}
	free(order);
	return 0;
}

/* ---- printa() of several aggregations: rows joined by key ---- */

/* One key and its value in each of the joined aggregations. */
struct bundle {
	const struct dtf_row *key;	/* a row that holds the key */
	const struct dtf_value **vals;	/* one per aggregation */
};

/* The state of one joined printa(): N aggregations, each one's value
 * for a key it lacks (zero, of its kind), and the bundles. */
struct join {
	const struct dtf_agg *aggs;
	int n;
	struct dtf_value *zero;
	int64_t **zb;
	uint64_t *normals;
	struct bundle *b;
	int nb;
};

/* Order of the (aggregation, row) pairs gathered: by key, then by
 * aggregation, so one key's rows are next to each other. */
static int ref_cmp(const void *lp, const void *rp, void *arg)
{
	const struct join *j = arg;
	const int *l = lp, *r = rp;
	int c = keys_cmp(&j->aggs[l[0]].rows[l[1]], &j->aggs[r[0]].rows[r[1]]);

	return c ? c : (l[0] > r[0]) - (l[0] < r[0]);
}

/* dt_aggregate_bundlecmp(): the values in aggregation order, then the
 * key. */
static int bundle_cmp(const void *lp, const void *rp, void *arg)
{
	const struct join *j = arg;
	const struct bundle *l = lp, *r = rp;
	const struct dtf_sort *s = &j->aggs[0].sort;
	int pos = s->pos < j->n ? s->pos : j->n - 1, c = 0;

	if (s->key)
		c = keys_cmp_from(l->key, r->key, s->keypos);
	/* aggsortpos's aggregation first, then the others in turn */
	if (!c && pos >= 0)
		c = val_cmp(l->vals[pos], r->vals[pos]);
	for (int i = 0; !c && i < j->n; i++)
		if (i != pos)
			c = val_cmp(l->vals[i], r->vals[i]);
	if (!c && !s->key)
		c = keys_cmp_from(l->key, r->key, s->keypos);
	return s->rev ? -c : c;
}

/* Each aggregation's zero: its kind (a count when it has no rows to
 * tell), its histogram shape, all counts 0. */
static int join_zeros(struct join *j)
{
	const struct dtf_agg *a;
	struct dtf_value *z;
	int i, nb;

	for (i = 0; i < j->n; i++) {
		a = &j->aggs[i];
		z = &j->zero[i];
		j->normals[i] = a->normal ? a->normal : 1;
		memset(z, 0, sizeof(*z));
		z->kind = a->nrows ? a->rows[0].val.kind : DTF_COUNT;
		if (z->kind < DTF_QUANTIZE)
			continue;
		z->hist = a->rows[0].val.hist;
		nb = z->kind == DTF_QUANTIZE ? DTF_QUANT_NBUCKETS :
		     z->kind == DTF_LQUANTIZE ? dtf_lquant_nbuckets(&z->hist.lq)
					      : dtf_llquant_nbuckets(&z->hist.llq);
		j->zb[i] = calloc((size_t)nb, sizeof(int64_t));
		if (!j->zb[i])
			return -ENOMEM;
		z->hist.b = j->zb[i];
	}
	return 0;
}

/* Gather the rows of all aggregations into bundles, one per key; VALS
 * has room for N values per row. */
static int join_rows(struct join *j, const struct dtf_value **vals)
{
	int total = 0, i, r, k, (*refs)[2];
	const struct dtf_row *row;
	struct bundle *b = NULL;

	for (i = 0; i < j->n; i++)
		total += j->aggs[i].nrows;
	refs = malloc(sizeof(*refs) * (size_t)(total ? total : 1));
	if (!refs)
		return -ENOMEM;
	for (i = 0, k = 0; i < j->n; i++)
		for (r = 0; r < j->aggs[i].nrows; r++, k++) {
			refs[k][0] = i;
			refs[k][1] = r;
		}
	qsort_r(refs, (size_t)total, sizeof(*refs), ref_cmp, j);
	for (k = 0; k < total; k++) {
		row = &j->aggs[refs[k][0]].rows[refs[k][1]];
		if (!b || keys_cmp(b->key, row) != 0) {
			b = &j->b[j->nb];
			b->key = row;
			b->vals = vals + (size_t)j->nb * (size_t)j->n;
			for (i = 0; i < j->n; i++)
				b->vals[i] = &j->zero[i];
			j->nb++;
		}
		b->vals[refs[k][0]] = &row->val;
	}
	free(refs);
	return 0;
}

static void join_print(FILE *fp, const char *fmt, const struct join *j)
{
	const struct bundle *b;
	int i, k;

	if (!fmt)
		fputc('\n', fp);
	for (k = 0; k < j->nb; k++) {
		b = &j->b[k];
		if (fmt) {
			printa_row(fp, fmt, b->key, b->vals, j->normals, j->n);
			continue;
		}
		for (i = 0; i < b->key->nkeys; i++)
			dtf_key(fp, &b->key->keys[i]);
		for (i = 0; i < j->n; i++)
			dtf_value(fp, b->vals[i], j->normals[i]);
		fputc('\n', fp);
	}
}

int dtf_printa_join(FILE *fp, const char *fmt, const struct dtf_agg *aggs,
		    int n)
{
	struct join j = { aggs, n, NULL, NULL, NULL, NULL, 0 };
	const struct dtf_value **vals = NULL;
	int total = 0, i, err = -ENOMEM;

	for (i = 0; i < n; i++)
		total += aggs[i].nrows;
	j.zero = calloc((size_t)n + 1, sizeof(*j.zero));
	j.zb = calloc((size_t)n + 1, sizeof(*j.zb));
	j.normals = calloc((size_t)n + 1, sizeof(*j.normals));
	j.b = calloc((size_t)total + 1, sizeof(*j.b));
	vals = calloc(((size_t)total + 1) * (size_t)(n + 1), sizeof(*vals));
	if (j.zero && j.zb && j.normals && j.b && vals &&
	    join_zeros(&j) == 0 && join_rows(&j, vals) == 0) {
		qsort_r(j.b, (size_t)j.nb, sizeof(*j.b), bundle_cmp, &j);
		join_print(fp, fmt, &j);
		err = 0;
	}
	for (i = 0; j.zb && i < n; i++)
		free(j.zb[i]);
	free(j.zb);
	free(j.zero);
	free(j.normals);
	free(j.b);
	free(vals);
	return err;
}
