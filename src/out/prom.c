/* prom.c - the maps as Prometheus metrics (text exposition format
 * 0.0.4), for --metrics (run/metrics.c serves what this writes;
 * docs/internals.md, "Live metrics").  The entries are read through
 * pr_map_entries(), as print.c reads them, so per-CPU values merge the
 * same way.
 *
 * One family per map, named sonde_NAME after @NAME:
 *   count()                 counter   sonde_NAME_total
 *   sum() of unsigned       counter   sonde_NAME_total
 *   sum() of signed, min(), max(), avg(), stddev(), integer values
 *                           gauge     sonde_NAME
 *   stats()                 gauge     sonde_NAME{stat="count"|"avg"|"total"}
 *   hist(), lhist()         histogram sonde_NAME_bucket{le=...},
 *                                     sonde_NAME_sum, sonde_NAME_count
 * Keys are labels: key (one key), key0, key1, ... (a tuple), the field
 * names (a record).  Maps with no number to give (strings, tuples and
 * stacks as values, tseries()) are left out. */
#include "out/printer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct family {
	struct printer *pr;
	FILE *f;
	const struct mapinfo *m;
	const char *name;	/* sonde_NAME */
	const char *suffix;	/* counters: "_total", unless NAME has it */
	char **texts;		/* each entry's lines */
	int n, cap;
};

/* PREFIX_NAME for map "@NAME" ("@": PREFIX; the prefix is "sonde", or
 * sonde_SCRIPT for sonde serve's metrics.d scripts): what Prometheus
 * allows in a name, [a-zA-Z0-9_:], with ':' and the rest as '_'. */
static char *metric_name(const char *prefix, const char *map)
{
	size_t n = strlen(map), np = strlen(prefix);
	char *s = xmalloc(n + np + 3), *p;

	strcpy(s, prefix);
	p = s + np;
	if (map[0] == '@' && map[1])
		*p++ = '_';
	for (const char *q = map[0] == '@' ? map + 1 : map; *q; q++) {
		unsigned char ch = (unsigned char)*q;

		*p++ = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		       (ch >= '0' && ch <= '9') ? (char)ch : '_';
	}
	*p = 0;
	return s;
}

/* A label value: '\\', '"' and newlines escaped. */
static void label_value(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' || s[i] == '"')
			fputc('\\', f);
		if (s[i] == '\n')
			fputs("\\n", f);
		else
			fputc(s[i], f);
	}
	fputc('"', f);
}

/* One element of a key, as print.c writes it, without the indenting
 * and the trailing newline stacks print with. */
static void key_elem(struct family *fa, const char *label,
		     const struct type *ty, const uint8_t *p)
{
	char *text = NULL;
	size_t len = 0, i = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	pr_text_typed(fa->pr, m, ty, p, 0);
	fclose(m);
	while (i < len && (text[i] == '\n' || text[i] == ' '))
		i++;
	while (len > i && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	fprintf(fa->f, "%s=", label);
	label_value(fa->f, text + i, len - i);
	free(text);
}

/* The labels of KEY, and EXTRA (a label already written, or NULL),
 * between braces; nothing for a keyless map without EXTRA. */
static void labels(struct family *fa, const uint8_t *key, const char *extra)
{
	const struct type *k = fa->m->key;
	bool any = false;

	if (!k && !extra)
		return;
	fputc('{', fa->f);
	if (k && k->kind == TY_TUPLE) {
		for (int i = 0; i < k->nelem; i++) {
			char label[32];

			if (i)
				fputc(',', fa->f);
			if (!k->names)
				snprintf(label, sizeof(label), "key%d", i);
			key_elem(fa, k->names ? k->names[i] : label,
				 k->elem[i], key + k->off[i]);
		}
		any = k->nelem > 0;
	} else if (k) {
		key_elem(fa, "key", k, key);
		any = true;
	}
	if (extra)
		fprintf(fa->f, "%s%s", any ? "," : "", extra);
	fputc('}', fa->f);
}

/* The largest integer of bucket I of hist/lhist map M (a Prometheus
 * "le"); false for the last, whose bound is +Inf. */
static bool bucket_le(const struct mapinfo *m, int i, int nb, int64_t *le)
{
	if (i >= nb - 1)
		return false;
	if (m->agg == AGG_LHIST) {
		*le = i == 0 ? m->lh_min - 1 : m->lh_min + i * m->lh_step - 1;
		return true;
	}
	if (i == 0) {			/* the negatives */
		*le = -1;
		return true;
	}
	if (i <= 2 << m->hist_bits) {	/* one value each: i - 1 */
		*le = i - 1;
		return true;
	}
	uint64_t next;

	if (!hist_low(i, m->hist_bits, &next) || next - 1 > INT64_MAX)
		return false;
	*le = (int64_t)(next - 1);
	return true;
}

static void histogram(struct family *fa, const struct pr_entry *e)
{
	int lo = 0, hi = -1;
	uint64_t cum = 0;
	char le[48];

	for (int i = 0; i < e->nb; i++)
		if (e->b[i]) {
			if (hi < 0)
				lo = i;
			hi = i;
		}
	/* one empty bucket below the first used one gives the first its
	 * lower bound; the buckets after the last used add nothing */
	if (lo > 0)
		lo--;
	for (int i = lo; i <= hi; i++) {
		int64_t v;

		cum += e->b[i];
		if (!bucket_le(fa->m, i, e->nb, &v))
			break;
		snprintf(le, sizeof(le), "le=\"%" PRId64 "\"", v);
		fprintf(fa->f, "%s_bucket", fa->name);
		labels(fa, e->key, le);
		fprintf(fa->f, " %" PRIu64 "\n", cum);
	}
	fprintf(fa->f, "%s_bucket", fa->name);
	labels(fa, e->key, "le=\"+Inf\"");
	fprintf(fa->f, " %" PRId64 "\n", e->v);
	fprintf(fa->f, "%s_sum", fa->name);
	labels(fa, e->key, NULL);
	fprintf(fa->f, " %" PRId64 "\n", e->hsum);
	fprintf(fa->f, "%s_count", fa->name);
	labels(fa, e->key, NULL);
	fprintf(fa->f, " %" PRId64 "\n", e->v);
}

static void sample(struct family *fa, const char *suffix,
		   const struct pr_entry *e, const char *extra, int64_t v,
		   bool sgn)
{
	fprintf(fa->f, "%s%s", fa->name, suffix);
	labels(fa, e->key, extra);
	if (sgn)
		fprintf(fa->f, " %" PRId64 "\n", v);
	else
		fprintf(fa->f, " %" PRIu64 "\n", (uint64_t)v);
}

static void entry_text(struct family *fa, const struct pr_entry *e);

/* Each entry's lines apart, sorted by their text at the end, so that
 * the series come in the same order at every scrape. */
static void entry(void *arg, const struct pr_entry *e)
{
	struct family *fa = arg;
	FILE *out = fa->f;
	char *text = NULL;
	size_t len = 0;

	fa->f = open_memstream(&text, &len);
	if (!fa->f) {
		fa->f = out;
		return;
	}
	entry_text(fa, e);
	fclose(fa->f);
	fa->f = out;
	if (fa->n == fa->cap) {
		fa->cap = fa->cap ? 2 * fa->cap : 16;
		fa->texts = xrealloc(fa->texts, sizeof(char *) * (size_t)fa->cap);
	}
	fa->texts[fa->n++] = text;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void entry_text(struct family *fa, const struct pr_entry *e)
{
	const struct mapinfo *m = fa->m;
	bool sgn = m->val && m->val->is_signed;

	switch (m->agg) {
	case AGG_HIST: case AGG_LHIST:
		histogram(fa, e);
		break;
	case AGG_COUNT: case AGG_SUM:
		sample(fa, fa->suffix, e, NULL, e->v, sgn && m->agg == AGG_SUM);
		break;
	case AGG_STATS:
		sample(fa, "", e, "stat=\"count\"", (int64_t)e->count, false);
		sample(fa, "", e, "stat=\"avg\"", e->v, sgn);
		sample(fa, "", e, "stat=\"total\"", e->total, sgn);
		break;
	case AGG_NONE:		/* integers, of their own width */
		sample(fa, "", e, NULL, pr_int_at(m->val, e->raw), sgn);
		break;
	default:		/* min, max, avg, stddev */
		sample(fa, "", e, NULL, e->v, sgn);
		break;
	}
}

/* Does map M give numbers, and of which Prometheus type? */
static const char *family_type(const struct mapinfo *m)
{
	switch (m->agg) {
	case AGG_COUNT:
		return "counter";
	case AGG_SUM:
		return m->val && m->val->is_signed ? "gauge" : "counter";
	case AGG_MIN: case AGG_MAX: case AGG_AVG: case AGG_STATS:
	case AGG_STDDEV:
		return "gauge";
	case AGG_HIST: case AGG_LHIST:
		return "histogram";
	case AGG_NONE:
		return m->val && m->val->kind == TY_INT ? "gauge" : NULL;
	default:
		return NULL;
	}
}

static const char *agg_call(const struct mapinfo *m)
{
	switch (m->agg) {
	case AGG_COUNT: return "count()";
	case AGG_SUM: return "sum()";
	case AGG_MIN: return "min()";
	case AGG_MAX: return "max()";
	case AGG_AVG: return "avg()";
	case AGG_STATS: return "stats()";
	case AGG_STDDEV: return "stddev()";
	case AGG_HIST: return "hist()";
	case AGG_LHIST: return "lhist()";
	default: return "integer values";
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct mapinfo *const *)a)->name,
		      (*(struct mapinfo *const *)b)->name);
}

void pr_prometheus(struct printer *pr, FILE *f)
{
	struct compiler *c = pr->c;
	struct mapinfo **maps;

	if (!c->nmaps)
		return;
	maps = xmalloc(sizeof(*maps) * (size_t)c->nmaps);
	memcpy(maps, c->maps, sizeof(*maps) * (size_t)c->nmaps);
	qsort(maps, (size_t)c->nmaps, sizeof(*maps), by_name);
	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = maps[i];
		const char *type = family_type(m);
		bool counter = m->agg == AGG_COUNT ||
			       (m->agg == AGG_SUM && !(m->val && m->val->is_signed));
		size_t len = strlen(m->name);
		/* a counter's name ends in _total, once */
		bool total = counter && (len < 6 ||
					 strcmp(m->name + len - 6, "_total"));
		struct family fa = { pr, f, m, NULL, total ? "_total" : "",
				     NULL, 0, 0 };
		char *name;

		if (!type || m->fd < 0)
			continue;
		name = metric_name(pr->prom_prefix ? pr->prom_prefix : "sonde",
				   m->name);
		fa.name = name;
		fprintf(f, "# HELP %s%s sonde map %s: %s\n", name,
			total ? "_total" : "", m->name, agg_call(m));
		fprintf(f, "# TYPE %s%s %s\n", name, total ? "_total" : "",
			type);
		pr_map_entries(pr, m, entry, &fa);
		qsort(fa.texts, (size_t)fa.n, sizeof(char *), by_text);
		for (int k = 0; k < fa.n; k++) {
			fputs(fa.texts[k], f);
			free(fa.texts[k]);
		}
		free(fa.texts);
		free(name);
	}
	free(maps);
}
