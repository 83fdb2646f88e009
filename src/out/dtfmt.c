/* dtfmt.c - DTrace's histograms, stddev(), trace() and the probe-firing
 * lines, reproduced byte for byte from dtrace-utils' libdtrace
 * (dt_consume.c) and cmd/dtrace.c.  The rows, sorting and printa() of
 * whole aggregations are in dtfmt_agg.c.
 *
 * Several results below are odd on purpose: a count divided by
 * normalize() is divided as unsigned and printed signed, a 1-byte key
 * prints unsigned, a label longer than 15 characters is cut.  DTrace
 * does these things and scripts' expected outputs depend on them. */
#include "out/dtfmt.h"
#include "out/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The bar is 40 columns; with both positive and negative counts each side
 * gets half. */
#define BAR 40

static const char ats[BAR + 1] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
static const char sp[BAR + 1] = "                                        ";

static long double absl_(long double x)
{
	return x < 0 ? -x : x;
}

/* DTrace divides a count by the normal as unsigned ((long long)v /
 * uint64_t converts both to unsigned) and prints the result signed. */
static long long normdiv(int64_t v, uint64_t normal)
{
	return (long long)((uint64_t)v / (normal ? normal : 1));
}

/* One row's bar and count after its label, dt_print_quantline(). */
static void quantline(FILE *fp, int64_t val, uint64_t normal,
		      long double total, int pos, int neg)
{
	unsigned len = BAR, depth = 0;
	long long shown = normdiv(val, normal);

	if (!neg) {
		if (pos)
			depth = (unsigned)(absl_((long double)val) * len /
					   total + 0.5);
		fprintf(fp, "|%.*s%.*s %-9lld\n", (int)depth, ats,
			(int)(len - depth), sp, shown);
		return;
	}
	if (!pos) {
		depth = (unsigned)(absl_((long double)val) * len / total + 0.5);
		fprintf(fp, "%.*s%.*s| %-9lld\n", (int)(len - depth), sp,
			(int)depth, ats, shown);
		return;
	}
	len /= 2;
	depth = (unsigned)(absl_((long double)val) * len / total + 0.5);
	if (val <= 0)
		fprintf(fp, "%.*s%.*s|%*s %-9lld\n", (int)(len - depth), sp,
			(int)depth, ats, (int)len, "", shown);
	else
		fprintf(fp, "%*s|%.*s%.*s %-9lld\n", (int)len, "", (int)depth,
			ats, (int)(len - depth), sp, shown);
}

/* Which of B[FIRST..LAST] are positive or negative, and the sum of their
 * magnitudes: the scale of every bar. */
static long double scan(const int64_t *b, int first, int last, int *pos,
			int *neg)
{
	long double total = 0;
	int i;

	*pos = *neg = 0;
	for (i = first; i <= last; i++) {
		*pos |= b[i] > 0;
		*neg |= b[i] < 0;
		total += absl_((long double)b[i]);
	}
	return total;
}

static void table_header(FILE *fp)
{
	fprintf(fp, "\n%16s %41s %-9s\n", "value",
		"------------- Distribution -------------", "count");
}

/* The rows quantize() and lquantize() print: from one before the first
 * non-empty bucket to one after the last; EMPTY_FIRST when none is. */
static void span(const int64_t *b, int n, int empty_first, int *first,
		 int *last)
{
	int f = 0, l = n - 1;

	while (f <= l && b[f] == 0)
		f++;
	if (f > l) {
		*first = empty_first;
		*last = empty_first + 2;
		return;
	}
	if (f > 0)
		f--;
	while (l > 0 && b[l] == 0)
		l--;
	if (l < n - 1)
		l++;
	*first = f;
	*last = l;
}

const char *dtf_walltime(char *buf, size_t n, int64_t ns, char conv)
{
	time_t secs = (time_t)((uint64_t)ns / 1000000000ull);
	struct tm tm;

	buf[0] = 0;
	if (localtime_r(&secs, &tm))
		strftime(buf, n, conv == 'T' ? "%a, %d %b %G %T %Z" :
			 "%Y %b %e %T", &tm);
	return buf;
}

int dtf_quant_index(int64_t v)
{
	uint64_t u;
	int k = 0;

	if (v == 0)
		return DTF_QUANT_ZERO;
	/* |v| in [2^k, 2^(k+1)); a negative v whose magnitude is not a
	 * power of two rounds toward zero (-3 counts with -2), and
	 * everything at or below -2^62 shares bucket 0. */
	u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	while (k < 63 && (u >> (k + 1)) != 0)
		k++;
	if (v > 0)
		return DTF_QUANT_ZERO + 1 + k;
	if (k > 62)
		k = 62;
	return DTF_QUANT_ZERO - 1 - k;
}

int64_t dtf_quant_value(int i)
{
	if (i < DTF_QUANT_ZERO)
		return -(int64_t)(1ULL << (DTF_QUANT_ZERO - 1 - i));
	if (i == DTF_QUANT_ZERO)
		return 0;
	return (int64_t)(1ULL << (i - DTF_QUANT_ZERO - 1));
}

void dtf_quantize(FILE *fp, const int64_t *b, uint64_t normal)
{
	int first, last, pos, neg, i;
	long double total;

	span(b, DTF_QUANT_NBUCKETS, DTF_QUANT_ZERO - 1, &first, &last);
	total = scan(b, first, last, &pos, &neg);
	table_header(fp);
	for (i = first; i <= last; i++) {
		fprintf(fp, "%16lld ", (long long)dtf_quant_value(i));
		quantline(fp, b[i], normal, total, pos, neg);
	}
}

int dtf_lquant_init(struct dtf_lquant *lq, int64_t base, int64_t limit,
		    int64_t step)
{
	int64_t levels;

	if (step < 1 || step > UINT16_MAX || limit <= base ||
	    base < INT32_MIN || limit > INT32_MAX)
		return -EINVAL;
	levels = (limit - base) / step;
	if (levels < 1 || levels > UINT16_MAX)
		return -EINVAL;
	lq->base = (int32_t)base;
	lq->step = (uint16_t)step;
	lq->levels = (uint16_t)levels;
	return 0;
}

int dtf_lquant_nbuckets(const struct dtf_lquant *lq)
{
	return lq->levels + 2;
}

int dtf_lquant_index(const struct dtf_lquant *lq, int64_t v)
{
	int64_t level;

	if (v < lq->base)
		return 0;
	level = (v - lq->base) / lq->step;
	if (level < lq->levels)
		return (int)level + 1;
	return lq->levels + 1;
}

void dtf_lquantize(FILE *fp, const struct dtf_lquant *lq, const int64_t *b,
		   uint64_t normal)
{
	int n = dtf_lquant_nbuckets(lq), first, last, pos, neg, i;
	long double total;
	char c[32];

	span(b, n, 0, &first, &last);
	total = scan(b, first, last, &pos, &neg);
	table_header(fp);
	for (i = first; i <= last; i++) {
		if (i == 0) {
			snprintf(c, sizeof(c), "< %d", lq->base);
			fprintf(fp, "%16s ", c);
		} else if (i == n - 1) {
			snprintf(c, sizeof(c), ">= %d",
				 lq->base + lq->levels * lq->step);
			fprintf(fp, "%16s ", c);
		} else {
			fprintf(fp, "%16d ", lq->base + (i - 1) * lq->step);
		}
		quantline(fp, b[i], normal, total, pos, neg);
	}
}

/* F^E, or 0 past UINT64_MAX. */
static uint64_t upow(uint64_t f, int e)
{
	uint64_t r = 1;

	while (e-- > 0) {
		if (r > UINT64_MAX / f)
			return 0;
		r *= f;
	}
	return r;
}

int dtf_llquant_init(struct dtf_llquant *lq, int64_t factor, int64_t low,
		     int64_t high, int64_t steps)
{
	uint64_t top;

	if (factor < 2 || factor > UINT16_MAX || low < 0 || high < low ||
	    high > UINT16_MAX || steps < 1 || steps > UINT16_MAX)
		return -EINVAL;
	if (steps < factor ? factor % steps : steps % factor)
		return -EINVAL;
	/* every magnitude's buckets must be whole numbers wide, except the
	 * first when low is 0: that one is spread over "ghost" buckets */
	if (steps > factor &&
	    upow(factor, (int)low + 1 + (low == 0)) % steps != 0)
		return -EINVAL;
	top = upow(factor, (int)high + 1);
	if (top == 0 || top > INT64_MAX)
		return -EINVAL;
	lq->factor = (uint16_t)factor;
	lq->lmag = (uint16_t)low;
	lq->hmag = (uint16_t)high;
	lq->steps = (uint16_t)steps;
	return 0;
}

/* Buckets per magnitude on each side of zero. */
static int per_mag(const struct dtf_llquant *lq)
{
	return lq->steps - lq->steps / lq->factor;
}

int dtf_llquant_nbuckets(const struct dtf_llquant *lq)
{
	return 2 * (lq->hmag - lq->lmag + 1) * per_mag(lq) + 3;
}

int dtf_llquant_zero(const struct dtf_llquant *lq)
{
	return 1 + (lq->hmag - lq->lmag + 1) * per_mag(lq);
}

int dtf_llquant_index(const struct dtf_llquant *lq, int64_t v)
{
	int bin0 = dtf_llquant_zero(lq), per = per_mag(lq);
	int sf = lq->steps / lq->factor, off = 1, mag, k;
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
	uint64_t lo = upow(lq->factor, lq->lmag), hi;

	if (a < lo)
		return bin0;
	for (mag = lq->lmag; mag <= lq->hmag; mag++, off += per) {
		hi = lo * lq->factor;
		if (a < hi) {
			/* the magnitude is cut into STEPS buckets, of which
			 * the lowest STEPS/FACTOR lie below LO */
			if (hi % lq->steps == 0)
				k = (int)(a / (hi / lq->steps)) - sf;
			else
				k = (int)(a * lq->steps / hi) - sf;
			off += k;
			return v < 0 ? bin0 - off : bin0 + off;
		}
		lo = hi;
	}
	return v < 0 ? bin0 - off : bin0 + off;
}

uint64_t dtf_llquant_label(const struct dtf_llquant *lq, int pos)
{
	int sf = lq->steps / lq->factor, per = per_mag(lq);
	int i0 = 1, m0 = lq->lmag, j, mag;

	if (pos == 1)
		return upow(lq->factor, lq->lmag);
	if (lq->lmag == 0 && lq->steps > lq->factor) {
		/* magnitude 0 is narrower than its buckets: only the
		 * integers 2..factor get one, SF buckets apart */
		i0 = 1 + lq->steps - sf;
		m0 = 1;
		if (pos <= i0)
			return (pos - 1) % sf ? 0 : (uint64_t)(pos - 1) / sf + 1;
	}
	j = pos - i0 - 1;
	mag = m0 + j / per;
	return (uint64_t)(sf + 1 + j % per) *
	       (upow(lq->factor, mag + 1) / lq->steps);
}

/* The label of bucket I into C (16 bytes, cut as DTrace's are), empty
 * for a ghost bucket.  FIRST, the first row shown, decides how bin0
 * reads. */
static void ll_text(const struct dtf_llquant *lq, int i, int first, char *c)
{
	int bin0 = dtf_llquant_zero(lq), n = dtf_llquant_nbuckets(lq);
	uint64_t top = upow(lq->factor, lq->hmag + 1), scale, l;

	c[0] = '\0';
	if (i == 0) {
		snprintf(c, 16, "<= -%llu", (unsigned long long)top);
	} else if (i == n - 1) {
		snprintf(c, 16, ">= %llu", (unsigned long long)top);
	} else if (i == bin0) {
		scale = upow(lq->factor, lq->lmag);
		if (scale == 1)
			snprintf(c, 16, "0");
		else
			snprintf(c, 16, first >= bin0 ? "< %llu" :
				 "abs() < %llu", (unsigned long long)scale);
	} else {
		l = dtf_llquant_label(lq, i > bin0 ? i - bin0 : bin0 - i);
		if (l)
			snprintf(c, 16, i > bin0 ? "%llu" : "-%llu",
				 (unsigned long long)l);
	}
}

void dtf_llquantize(FILE *fp, const struct dtf_llquant *lq,
		    const int64_t *b, uint64_t normal)
{
	int n = dtf_llquant_nbuckets(lq), bin0 = dtf_llquant_zero(lq);
	int first = 0, last = n - 1, pad = 0, pos, neg, i, j;
	long double total;
	char c[16];

	while (first <= last && b[first] == 0)
		first++;
	if (first > last) {
		first = last = bin0 + 1;
	} else {
		while (b[last] == 0)
			last--;
	}
	total = scan(b, first, last, &pos, &neg);
	table_header(fp);
	if (first > 0)
		first--;
	if (last < n - 1)
		last++;
	if (lq->lmag == 0 && lq->steps > lq->factor)
		pad = lq->steps / lq->factor;
	for (i = first; i <= last; i++) {
		ll_text(lq, i, first, c);
		/* a ghost bucket at either end borrows the label of the
		 * nearest labelled one further out */
		for (j = 1; !c[0] && (i == first || i == last) && j < pad; j++)
			ll_text(lq, i == first ? i - j : i + j, first, c);
		if (!c[0])
			continue;
		fprintf(fp, "%16s ", c);
		quantline(fp, b[i], normal, total, pos, neg);
	}
}

void dtf_stddev_add(struct dtf_stddev *sd, int64_t v)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;
	unsigned __int128 sq = ((unsigned __int128)sd->sq[1] << 64) | sd->sq[0];

	sd->count++;
	sd->sum = (int64_t)((uint64_t)sd->sum + (uint64_t)v);
	sq += (unsigned __int128)a * a;
	sd->sq[0] = (uint64_t)sq;
	sd->sq[1] = (uint64_t)(sq >> 64);
}

/* floor(sqrt(X)), bit pair by bit pair as long-hand decimal roots go. */
static uint64_t isqrt128(unsigned __int128 x)
{
	unsigned __int128 rem = 0, root = 0, trial;
	int shift;

	for (shift = 126; shift >= 0; shift -= 2) {
		rem = (rem << 2) | ((x >> shift) & 3);
		trial = (root << 2) | 1;
		root <<= 1;
		if (trial <= rem) {
			rem -= trial;
			root |= 1;
		}
	}
	return (uint64_t)root;
}

uint64_t dtf_stddev_value(const struct dtf_stddev *sd, uint64_t normal)
{
	unsigned __int128 avgsq, sqavg;
	int64_t avg;

	if (sd->count == 0)
		return 0;
	if (normal == 0)
		normal = 1;
	avgsq = ((unsigned __int128)sd->sq[1] << 64) | sd->sq[0];
	avgsq = avgsq / normal / sd->count;
	avg = sd->sum / (int64_t)normal / (int64_t)sd->count;
	if (avg < 0)
		avg = -avg;
	sqavg = (unsigned __int128)(uint64_t)avg * (uint64_t)avg;
	/* rounding can make the difference negative; DTrace then takes the
	 * root of the wrapped 128-bit value, and so do we */
	return isqrt128(avgsq - sqavg);
}

void dtf_trace_int(FILE *fp, int64_t v, int size, int is_signed, int quiet)
{
	static const int sw[9] = { 0, 3, 5, 0, 10, 0, 0, 0, 19 };
	static const int uw[9] = { 0, 3, 5, 0, 10, 0, 0, 0, 20 };
	uint64_t u = (uint64_t)v;

	if (size != 1 && size != 2 && size != 4)
		size = 8;
	if (size < 8) {
		u &= (1ULL << (size * 8)) - 1;
		if (is_signed && (u >> (size * 8 - 1)))
			v = (int64_t)(u | ~((1ULL << (size * 8)) - 1));
		else
			v = (int64_t)u;
	}
	if (is_signed && quiet)
		fprintf(fp, "%lld", (long long)v);
	else if (is_signed)
		fprintf(fp, " %*lld", sw[size], (long long)v);
	else if (quiet)
		fprintf(fp, "%llu", (unsigned long long)u);
	else
		fprintf(fp, " %*llu", uw[size], (unsigned long long)u);
}

void dtf_trace_str(FILE *fp, const char *s, int quiet)
{
	if (quiet)
		fputs(s, fp);
	else
		fprintf(fp, "  %-33s", s);
}

/* isprint() || isspace() in the C locale, plus \a and \b: what DTrace
 * calls a printable character. */
static int printable(unsigned char c)
{
	return (c >= ' ' && c <= '~') || (c >= '\t' && c <= '\r') ||
	       c == '\a' || c == '\b';
}

void dtf_rawbytes(FILE *fp, const void *buf, size_t n)
{
	const unsigned char *c = buf;
	size_t i, j;

	if (n == 0)
		return;
	fprintf(fp, "\n%5s      ", "");
	for (i = 0; i < 16; i++)
		fprintf(fp, "  %c", "0123456789abcdef"[i]);
	fputs("  0123456789abcdef\n", fp);
	for (i = 0; i < n; i += 16) {
		fprintf(fp, "%5s%5zx:", "", i);
		for (j = i; j < i + 16 && j < n; j++)
			fprintf(fp, " %02x", c[j]);
		for (; j % 16; j++)
			fputs("   ", fp);
		fputs("  ", fp);
		for (j = i; j < i + 16 && j < n; j++)
			fputc(c[j] < ' ' || c[j] > '~' ? '.' : c[j], fp);
		fputc('\n', fp);
	}
}

void dtf_bytes(FILE *fp, const void *buf, size_t n, int width, int quiet)
{
	const unsigned char *c = buf;
	size_t i, j;

	if (n == 0)
		return;
	for (i = 0; i < n && printable(c[i]); i++)
		;
	if (i == n) {
		/* text with no NUL at all: a string, quiet or not */
		fprintf(fp, "  %-*.*s", width, (int)n, (const char *)c);
		return;
	}
	if (c[i] == '\0' && i > 0) {
		for (j = i + 1; j < n && c[j] == '\0'; j++)
			;
		if (j == n) {
			if (quiet)
				fputs((const char *)c, fp);
			else
				fprintf(fp, "  %-*s", width, (const char *)c);
			return;
		}
	}
	dtf_rawbytes(fp, buf, n);
}

void dtf_header(FILE *fp, int testing)
{
	if (testing)
		fprintf(fp, "%32s\n", "FUNCTION:NAME");
	else
		fprintf(fp, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
}

void dtf_probe_prefix(FILE *fp, int cpu, int id, const char *func,
		      const char *name, int testing)
{
	/* "%32s" of "FUNC:NAME", without building the string */
	int pad = 32 - (int)(strlen(func) + 1 + strlen(name));

	if (!testing)
		fprintf(fp, "%3d %6d ", cpu, id);
	fprintf(fp, "%*s%s:%s ", pad > 0 ? pad : 0, "", func, name);
}

/* NAME is SUFFIX, or ends in "-" SUFFIX. */
static int names(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n >= m && strcmp(name + n - m, suffix) == 0 &&
	       (n == m || name[n - m - 1] == '-');
}

enum dtf_flow dtf_flow_kind(const char *name)
{
	if (names(name, "entry"))
		return DTF_FLOW_ENTRY;
	if (names(name, "return"))
		return DTF_FLOW_RETURN;
	return DTF_FLOW_NONE;
}

void dtf_flow_header(FILE *fp, int testing)
{
	if (testing)
		fprintf(fp, "%-41s\n", "FUNCTION");
	else
		fprintf(fp, "%3s %-41s\n", "CPU", "FUNCTION");
}

void dtf_flow_prefix(FILE *fp, int cpu, int indent, enum dtf_flow flow,
		     int syscall, const char *func, const char *name,
		     int testing)
{
	const char *pre = flow == DTF_FLOW_ENTRY ? (syscall ? " => " : " -> ")
			: flow == DTF_FLOW_RETURN ? (syscall ? " <= " : " <- ")
			: "| ";
	int len = indent + (int)(strlen(pre) + strlen(func));

	if (flow == DTF_FLOW_NONE)
		len += 1 + (int)strlen(name);
	if (!testing)
		fprintf(fp, "%3d ", cpu);
	fprintf(fp, "%*s%s%s", indent, "", pre, func);
	if (flow == DTF_FLOW_NONE)
		fprintf(fp, ":%s", name);
	fprintf(fp, "%*s ", len < 41 ? 41 - len : 0, "");
}

void dtf_clause_end(FILE *fp, int quiet)
{
	if (!quiet)
		fputc('\n', fp);
}

int dtf_printf(FILE *fp, const char *fmt, size_t len,
	       const struct fmt_arg *args, int nargs)
{
	struct fmt_piece small[32], *p = small;
	const char *tag;
	char msg[160];
	size_t eoff;
	int n, a = 0;

	n = fmt_parse_d(fmt, len, small, 32, 1, &eoff, msg, sizeof(msg), &tag);
	if (n < 0)
		return -1;
	if (n > 32) {
		p = calloc((size_t)n, sizeof(*p));
		if (!p)
			return -1;
		fmt_parse_d(fmt, len, p, n, 1, &eoff, msg, sizeof(msg), &tag);
	}
	for (int k = 0; k < n; k++) {
		struct fmt_piece q = p[k];
		int size = q.size ? q.size : 8;

		if (q.want == FMT_WANT_NONE) {
			if (q.conv == '%')
				putc('%', fp);
			else
				fwrite(fmt + q.off, 1, q.len, fp);
			continue;
		}
		if (q.dyn & FMT_DYN_WIDTH) {
			int64_t w = a < nargs ? (int64_t)args[a].i : 0;

			a++;
			if (w < 0) {
				size_t nf = strlen(q.flags);

				if (!strchr(q.flags, '-') && nf < sizeof(q.flags) - 1)
					q.flags[nf] = '-';
				w = -w;
			}
			q.width = w > 100000 ? 100000 : (int)w;
		}
		if (q.dyn & FMT_DYN_PREC) {
			int64_t v = a < nargs ? (int64_t)args[a].i : 0;

			a++;
			q.prec = v < 0 ? -1 : v > 100000 ? 100000 : (int)v;
		}
		if (q.conv == 'p')
			q.size = 8;
		switch (q.conv) {
		case 'p':
			q.conv = 'x';
			size = 8;
			break;
		case 'i':
			q.conv = 'd';
			break;
		case 'C':
			q.conv = 'c';
			break;
		case 'a':
		case 'A':
		case 'S':
		case 'Y':
		case 'T':
			q.conv = 's';
			break;
		}
		/* D prints an integer at its type's size, and %d of an
		 * unsigned type as %u (DTrace's pfcheck_dint) */
		if (a < nargs && !q.size &&
		    args[a].size > 0 && args[a].size < 8)
			size = args[a].size;
		if (a < nargs && q.conv == 'd' && !args[a].is_signed &&
		    args[a].size)
			q.conv = 'u';
		if (a < nargs)
			fmt_convert(fp, &q, &args[a], size);
		a++;
	}
	if (p != small)
		free(p);
	return 0;
}
