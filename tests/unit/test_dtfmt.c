/* test_dtfmt.c - unit tests for src/out/dtfmt.c and dtfmt_agg.c.
 *
 * Most expected strings are the stdout of scripts of Oracle's
 * dtrace-utils test suite (test/unittest/<dir>/tst.NAME.r), copied as
 * they are; each test builds the values the script NAME.d produces
 * (through the module's own bucket index functions, so those are tested
 * too) and prints them the way dtrace would.  The rest are hand-made
 * from DTrace's formats, to reach the corners the suite does not.
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "out/dtfmt.h"
#include "check.h"
#include "dtfmt_r.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one test printed: a memory stream. */
struct out {
	char *s;
	size_t n;
	FILE *fp;
};

static FILE *out_open(struct out *o)
{
	o->s = NULL;
	o->n = 0;
	o->fp = open_memstream(&o->s, &o->n);
	if (!o->fp) {
		perror("open_memstream");
		exit(2);
	}
	return o->fp;
}

/* Print S with C escapes, so a failure shows trailing blanks. */
static void show(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n\"\n\"", stdout);
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
	puts("\"");
}

/* Close O and check it printed exactly WANT. */
static void expect(struct out *o, const char *want, const char *what)
{
	fclose(o->fp);
	check(strcmp(o->s, want) == 0, what);
	if (strcmp(o->s, want) != 0) {
		size_t i = 0;

		while (o->s[i] && o->s[i] == want[i])
			i++;
		printf("  first difference at byte %zu\n  got:  ", i);
		show(o->s);
		printf("  want: ");
		show(want);
	}
	free(o->s);
}

/* ---- hand-made expectations ---- */

static const char h_quant_mixed[] =
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"              -2                     |                     0        \n"
	"              -1                @@@@@|                     -1       \n"
	"               0                     |                     0        \n"
	"               1                     |@@@@@@@@@@@@@@@      3        \n"
	"               2                     |                     0        \n";

static const char h_quant_empty[] =
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"              -1 |                                         0        \n"
	"               0 |                                         0        \n"
	"               1 |                                         0        \n";

static const char h_lquant_hand[] =
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"             < 0 |@@@@@@@@@@@@@                            1        \n"
	"               0 |                                         0        \n"
	"               2 |@@@@@@@@@@@@@                            1        \n"
	"               4 |                                         0        \n"
	"               6 |                                         0        \n"
	"               8 |                                         0        \n"
	"           >= 10 |@@@@@@@@@@@@@                            1        \n";

static const char h_lquant_empty[] =
	"\n"
	"           value  ------------- Distribution ------------- count    \n"
	"            < -5 |                                         0        \n"
	"              -5 |                                         0        \n"
	"               0 |                                         0        \n";

static const char h_row_keys[] =
	"  bash                                                     42                7\n";

static const char h_row_stack[] =
	"\n"
	"              vmlinux`foo+0x10\n"
	"              vmlinux`bar\n"
	"                3\n";

static const char h_row_avg[] =
	"                3\n"
	"               -3\n";

static const char h_row_stddev[] =
	"                2\n";

static const char h_row_norm[] =
	"                3\n";

static const char h_row_emptystr[] =
	"\n"
	"             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
	"         0: 00                                               .\n"
	"                1\n";

static const char h_sorted[] =
	"\n"
	"  x                                                                -1\n"
	"  a                                                                 2\n"
	"  b                                                                 2\n"
	"  c                                                                 5\n";

static const char h_printa_keys[] =
	"k:-2:fffffffe:255:-7:fffffffffffffff9:%\n";

static const char h_printa_count[] =
	"[    5] [5       ]\n";

static const char h_printa_avg[] =
	"6148914691236517202\n";

static const char h_printa_stack[] =
	"\n"
	"vmlinux`foo\n"
	"vmlinux`bar\n"
	"3\n"
	"\n"
	"    vmlinux`foo\n"
	"    vmlinux`bar\n"
	"3\n";

static const char h_prefix[] =
	"CPU     ID                    FUNCTION:NAME\n"
	"  3   1234                   vfs_read:entry \n";

static const char h_trace_int16[] =
	"                   FUNCTION:NAME\n"
	"                          :BEGIN     -1\n"
	"\n";

static const char h_trace_widths[] =
	"  -1    -1         -1                  -1 255 65535 4294967295 18446744073709551615-1|255|-1|65535";

static const char h_bytes[] =
	"  abc  |abc|  abc  |\n"
	"             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n"
	"         0: 61 62 63 00 78                                   abc.x\n";

static const char h_join_fmt[] =
	"       456          0        456\n"
	"       123        123          0\n"
	"       789        789        789\n";

static const char h_join_default[] =
	"\n"
	"      456                0              456\n"
	"      123              123                0\n"
	"      789              789              789\n";

static const char h_join_more[] =
	"       456          0        456        456\n"
	"       123        123          0          0\n"
	"       789        789        789        789\n";

static const char h_flow[] =
	"CPU FUNCTION                                 \n"
	"  1  -> vfs_read                              \n"
	"  1   | vfs_read:probe                        \n"
	"  1  <= read                                  \n"
	"FUNCTION                                 \n"
	"                                         -> f \n";

/* ---- helpers building the values a script leaves ---- */

/* An aggregation of one row without keys. */
static struct dtf_agg one(struct dtf_row *r, const struct dtf_value *v)
{
	struct dtf_agg a = { r, 1, 1, { 0 } };

	r->keys = NULL;
	r->nkeys = 0;
	r->val = *v;
	return a;
}

static struct dtf_value scalar(enum dtf_kind kind, int64_t n)
{
	struct dtf_value v = { .kind = kind };

	v.n = n;
	return v;
}

static struct dtf_key ikey(int64_t v, int size, int is_signed)
{
	struct dtf_key k = { .kind = DTF_KEY_INT };

	k.i.v = v;
	k.i.size = (uint8_t)size;
	k.i.is_signed = (uint8_t)is_signed;
	return k;
}

static struct dtf_key skey(const char *s, size_t size)
{
	struct dtf_key k = { .kind = DTF_KEY_STR };

	k.str.s = s;
	k.str.size = size;
	return k;
}

/* ---- quantize() ---- */

static void test_quantize(void)
{
	static int64_t b[DTF_QUANT_NBUCKETS];
	struct dtf_value v = { .kind = DTF_QUANTIZE };
	struct dtf_row r;
	struct dtf_agg a;
	struct out o;
	int i, ok = 1;

	check(dtf_quant_index(0) == 63, "quantize: 0 in the zero bucket");
	check(dtf_quant_index(1) == 64 && dtf_quant_index(2) == 65 &&
	      dtf_quant_index(3) == 65 && dtf_quant_index(4) == 66,
	      "quantize: 1, 2, 3, 4");
	check(dtf_quant_index(-1) == 62 && dtf_quant_index(-2) == 61 &&
	      dtf_quant_index(-3) == 61 && dtf_quant_index(-4) == 60,
	      "quantize: -1, -2, -3 (with -2), -4");
	check(dtf_quant_index(INT64_MAX) == 126 &&
	      dtf_quant_index(INT64_C(1) << 62) == 126, "quantize: top");
	check(dtf_quant_index(INT64_MIN) == 0 &&
	      dtf_quant_index(-(INT64_C(1) << 62)) == 0 &&
	      dtf_quant_index(-(INT64_C(1) << 62) + 1) == 1,
	      "quantize: bottom");
	check(dtf_quant_value(0) == -(INT64_C(1) << 62) &&
	      dtf_quant_value(62) == -1 && dtf_quant_value(63) == 0 &&
	      dtf_quant_value(126) == INT64_C(1) << 62, "quantize: labels");
	for (i = 0; i < DTF_QUANT_NBUCKETS; i++)
		ok &= dtf_quant_index(dtf_quant_value(i)) == i;
	check(ok, "quantize: every label lands in its own bucket");

	/* aggs/tst.quantlast.d: @ = quantize(0x4000000000000000, 1234),
	 * printed at exit */
	b[dtf_quant_index(0x4000000000000000)] += 1234;
	v.hist.b = b;
	a = one(&r, &v);
	dtf_exit(out_open(&o), &a, 1);
	expect(&o, r_quantlast, "aggs/tst.quantlast");

	/* both signs: half bars around a centre line */
	memset(b, 0, sizeof(b));
	b[dtf_quant_index(1)] += 3;
	b[dtf_quant_index(-1)] -= 1;
	dtf_quantize(out_open(&o), b, 1);
	expect(&o, h_quant_mixed, "quantize: negative and positive counts");

	/* counts that cancel out: the buckets around zero */
	memset(b, 0, sizeof(b));
	dtf_quantize(out_open(&o), b, 1);
	expect(&o, h_quant_empty, "quantize: all empty");
}

/* ---- lquantize() ---- */

static void test_lquantize(void)
{
	struct dtf_lquant lq;
	int64_t b[8] = { 0 };

	check(dtf_lquant_init(&lq, 1, 10, 1) == 0 && lq.levels == 9,
	      "lquantize(1, 10): 9 levels");
	check(dtf_lquant_index(&lq, 0) == 0 && dtf_lquant_index(&lq, 1) == 1 &&
	      dtf_lquant_index(&lq, 9) == 9 && dtf_lquant_index(&lq, 10) == 10,
	      "lquantize(1, 10): under, first, last, over");
	check(dtf_lquant_init(&lq, 0, 10, 0) < 0 &&
	      dtf_lquant_init(&lq, 5, 5, 1) < 0 &&
	      dtf_lquant_init(&lq, 0, 1 << 20, 1) < 0,
	      "lquantize: bad arguments refused");

	check(dtf_lquant_init(&lq, 0, 10, 2) == 0 &&
	      dtf_lquant_nbuckets(&lq) == 7, "lquantize(0, 10, 2): 7 buckets");
	check(dtf_lquant_index(&lq, -1) == 0 && dtf_lquant_index(&lq, 3) == 2 &&
	      dtf_lquant_index(&lq, 9) == 5 && dtf_lquant_index(&lq, 10) == 6,
	      "lquantize(0, 10, 2): indexes");
	b[dtf_lquant_index(&lq, -1)]++;
	b[dtf_lquant_index(&lq, 3)]++;
	b[dtf_lquant_index(&lq, 11)]++;
	{
		struct out o;

		dtf_lquantize(out_open(&o), &lq, b, 1);
		expect(&o, h_lquant_hand, "lquantize: under, step, over");
		memset(b, 0, sizeof(b));
		dtf_lquant_init(&lq, -5, 5, 5);
		dtf_lquantize(out_open(&o), &lq, b, 1);
		expect(&o, h_lquant_empty, "lquantize: all empty");
	}
}

/* ---- llquantize(): aggs/tst.llquantize_basic.d, the whole script ---- */

/* One llquantize() call of the script: the value and its increment. */
struct llq_call {
	int64_t v, incr;
};

/* Print "NAME\n" then printa(@NAME) of the values CALLS leave. */
static void llq_case(FILE *fp, const char *title, int factor, int lo,
		     int hi, int steps, const struct llq_call *calls, int n)
{
	struct dtf_value v = { .kind = DTF_LLQUANTIZE };
	struct dtf_row r;
	struct dtf_agg a;
	int64_t *b;
	int i;

	if (dtf_llquant_init(&v.hist.llq, factor, lo, hi, steps) < 0) {
		check(0, title);
		return;
	}
	b = calloc((size_t)dtf_llquant_nbuckets(&v.hist.llq), sizeof(*b));
	for (i = 0; i < n; i++)
		b[dtf_llquant_index(&v.hist.llq, calls[i].v)] += calls[i].incr;
	v.hist.b = b;
	a = one(&r, &v);
	fprintf(fp, "%s\n", title);
	dtf_printa(fp, &a);
	free(b);
}

/* The script's values -20..20 with increments 100 + value. */
static int basic_calls(struct llq_call *c)
{
	static const int v[] = { -20, -16, -12, -8, -6, -5, -4, -3, -2, -1, 0,
				 1, 2, 3, 4, 5, 6, 8, 12, 16, 20 };
	int i;

	for (i = 0; i < 21; i++) {
		c[i].v = v[i];
		c[i].incr = 100 + v[i];
	}
	return 21;
}

static void test_llquantize(void)
{
	static const struct llq_call d[] = {
		{ -65536, 2 }, { -16384, 4 }, { -16384 + 1, 8 },
		{ -4096 - 11 * 512, 16 }, { -4096 - 11 * 512 + 1, 32 },
		{ -4096 - 10 * 512, 64 }, { -4096 - 10 * 512 + 1, 128 },
		{ -4096 - 9 * 512, 256 }, { -4096 - 9 * 512 + 1, 512 },
		{ -4096 - 8 * 512, 1024 }, { -4096 - 8 * 512 + 1, 1024 },
		{ -4096 - 1 * 512 - 2, 2048 }, { -4096 - 1 * 512 - 1, 4096 },
		{ -1024 - 12 * 128, 2048 }, { -1024 - 12 * 128 + 1, 4096 },
		{ -1024, 2048 }, { -256 - 3 * 32, 1024 },
		{ -256 - 3 * 32 + 1, 512 }, { -256, 256 }, { -256 + 1, 128 },
		{ 256 - 1, 2 }, { 256, 256 }, { 256 + 3 * 32 - 1, 512 },
		{ 256 + 3 * 32, 1024 }, { 1024, 2048 },
		{ 1024 + 12 * 128 - 1, 4096 }, { 1024 + 12 * 128, 2048 },
		{ 4096 + 1 * 512 + 1, 4096 }, { 4096 + 1 * 512 + 2, 2048 },
		{ 4096 + 8 * 512 - 1, 1024 }, { 4096 + 8 * 512, 1024 },
		{ 4096 + 9 * 512 - 1, 512 }, { 4096 + 9 * 512, 256 },
		{ 4096 + 10 * 512 - 1, 128 }, { 4096 + 10 * 512, 64 },
		{ 4096 + 11 * 512 - 1, 32 }, { 4096 + 11 * 512, 16 },
		{ 16384 - 1, 8 }, { 16384, 4 }, { 65536, 2 },
	};
	static const struct llq_call zero[] = { { 0, 1 }, { 0, -1 } };
	static const struct llq_call posv[] = { { 1, 1 } };
	static const struct llq_call negv[] = { { 2, -1 } };
	static const struct llq_call allv[] = { { 1, 1 }, { 2, -1 } };
	static const struct llq_call shift[] = { { -3, 1 }, { 3, 1 } };
	static const struct llq_call ghost[] = { { -1, 1 }, { 1, 1 } };
	struct llq_call c[21], single[9], logs[13];
	struct dtf_llquant lq;
	struct out o;
	FILE *fp;
	int i, n = basic_calls(c);
	int64_t p = 100000;

	for (i = 0; i < 9; i++) {
		single[i].v = i - 4;
		single[i].incr = 100 + i - 4;
	}
	for (i = 0; i < 13; i++, p = i < 6 ? p / 10 : p) {
		logs[i].v = i < 6 ? -p : i == 6 ? 0 : 1;
		logs[i].incr = 100108 + 100 * i;
	}
	for (i = 8, p = 10; i < 13; i++, p *= 10)
		logs[i].v = p;

	fp = out_open(&o);
	llq_case(fp, "basicA (steps<factor)", 4, 0, 1, 2, c, n);
	llq_case(fp, "basicB (steps==factor)", 4, 0, 1, 4, c, n);
	llq_case(fp, "basicC (steps>factor)", 4, 0, 1, 8, c, n);
	llq_case(fp, "basicD (steps>factor and bigger lmag)", 4, 4, 6, 32, d,
		 (int)(sizeof(d) / sizeof(d[0])));
	llq_case(fp, "zero", 2, 0, 1, 2, zero, 2);
	llq_case(fp, "zeroB (lmag==0 && steps>factor)", 2, 0, 1, 4, zero, 2);
	llq_case(fp, "posvals", 2, 0, 1, 2, posv, 1);
	llq_case(fp, "negvals", 2, 0, 1, 2, negv, 1);
	llq_case(fp, "allvals", 2, 0, 1, 2, allv, 2);
	llq_case(fp, "singlerangeA", 4, 0, 0, 4, single, 9);
	llq_case(fp, "singlerangeB", 4, 0, 0, 8, single, 9);
	llq_case(fp, "straightlog", 10, 0, 3, 1, logs, 13);
	llq_case(fp, "shift", 2, 0, 1, 2, shift, 2);
	llq_case(fp, "ghostbin (lmag==0 && steps>factor); check ghost-bin "
		 "problem", 2, 0, 1, 4, ghost, 2);
	dtf_exit(fp, NULL, 0);
	expect(&o, r_llq_basic, "aggs/tst.llquantize_basic");

	check(dtf_llquant_init(&lq, 1, 0, 1, 1) < 0 &&
	      dtf_llquant_init(&lq, 2, 0, 1, 3) < 0 &&
	      dtf_llquant_init(&lq, 4, 0, 1, 3) < 0 &&
	      dtf_llquant_init(&lq, 2, 1, 0, 2) < 0 &&
	      dtf_llquant_init(&lq, 10, 0, 19, 10) < 0,
	      "llquantize: bad arguments refused");
	check(dtf_llquant_init(&lq, 10, 0, 3, 1) == 0 &&
	      dtf_llquant_nbuckets(&lq) == 11 && dtf_llquant_zero(&lq) == 5,
	      "llquantize(10, 0, 3, 1): 11 buckets, bin0 5");
	check(dtf_llquant_init(&lq, 4, 4, 6, 32) == 0 &&
	      dtf_llquant_label(&lq, 1) == 256 &&
	      dtf_llquant_label(&lq, 2) == 288 &&
	      dtf_llquant_label(&lq, dtf_llquant_zero(&lq)) == 16384,
	      "llquantize(4, 4, 6, 32): labels");
	check(dtf_llquant_init(&lq, 2, 0, 1, 4) == 0 &&
	      dtf_llquant_label(&lq, 2) == 0 && dtf_llquant_label(&lq, 3) == 2,
	      "llquantize(2, 0, 1, 4): a ghost bucket has no label");
}

/* aggs/tst.llquantsortsum.d: four string keys, one llquantize(V, 10, 0,
 * 2, 20, INCR) each, printa(@) then exit: rows by the sum of label *
 * count, ghost buckets at the ends borrowing their neighbours' labels. */
static void test_llq_keys(void)
{
	static const char *const names[4] = { "Larry", "Moe", "Shemp",
					      "Curly" };
	static const int64_t v[4] = { 1, 2, 3, 4 }, incr[4] = { -25, -50, 50,
								 25 };
	int64_t b[4][111] = { { 0 } };
	struct dtf_key k[4];
	struct dtf_row r[4];
	struct dtf_agg a = { r, 4, 1, { 0 } };
	struct out o;
	FILE *fp;
	int i;

	for (i = 0; i < 4; i++) {
		k[i] = skey(names[i], 256);
		r[i].keys = &k[i];
		r[i].nkeys = 1;
		r[i].val.kind = DTF_LLQUANTIZE;
		if (dtf_llquant_init(&r[i].val.hist.llq, 10, 0, 2, 20) < 0 ||
		    dtf_llquant_nbuckets(&r[i].val.hist.llq) != 111) {
			check(0, "llquantize(10, 0, 2, 20): 111 buckets");
			return;
		}
		b[i][dtf_llquant_index(&r[i].val.hist.llq, v[i])] += incr[i];
		r[i].val.hist.b = b[i];
	}
	fp = out_open(&o);
	dtf_printa(fp, &a);
	dtf_exit(fp, NULL, 0);
	expect(&o, r_llquantsortsum, "aggs/tst.llquantsortsum");
}

/* aggs/tst.llquantsortzero.d: equal sums, so the count at zero orders
 * the rows. */
static void test_llq_zero(void)
{
	static const struct llq_call calls[4] = { { 0, 25 }, { 0, -25 },
						  { 2, 100 }, { 4, 50 } };
	int64_t b[2][111] = { { 0 } };
	struct dtf_key k[2] = { skey("Alfalfa", 256), skey("Buckwheat", 256) };
	struct dtf_row r[2];
	struct dtf_agg a = { r, 2, 1, { 0 } };
	struct out o;
	FILE *fp;
	int i;

	for (i = 0; i < 2; i++) {
		r[i].keys = &k[i];
		r[i].nkeys = 1;
		r[i].val.kind = DTF_LLQUANTIZE;
		dtf_llquant_init(&r[i].val.hist.llq, 10, 0, 2, 20);
		r[i].val.hist.b = b[i];
	}
	for (i = 0; i < 4; i++)
		b[i % 2][dtf_llquant_index(&r[0].val.hist.llq, calls[i].v)] +=
			calls[i].incr;
	fp = out_open(&o);
	dtf_printa(fp, &a);
	dtf_exit(fp, NULL, 0);
	expect(&o, r_llquantsortzero, "aggs/tst.llquantsortzero");
}

/* Rows of histograms sort by the sum of label * count. */
static void test_hist_sort(void)
{
	int64_t b[3][11] = { { 0 } };
	struct dtf_row r[3];
	struct dtf_agg a = { r, 3, 1, { 0 } };
	struct dtf_key k[3];
	int order[3], i;

	for (i = 0; i < 3; i++) {
		k[i] = ikey(i, 8, 1);
		r[i].keys = &k[i];
		r[i].nkeys = 1;
		r[i].val.kind = DTF_LLQUANTIZE;
		dtf_llquant_init(&r[i].val.hist.llq, 2, 0, 1, 2);
		r[i].val.hist.b = b[i];
	}
	b[0][dtf_llquant_index(&r[0].val.hist.llq, 3)] = 1;
	b[1][dtf_llquant_index(&r[1].val.hist.llq, -3)] = 1;
	b[2][dtf_llquant_index(&r[2].val.hist.llq, 0)] = 5;
	dtf_agg_sort(&a, order);
	check(order[0] == 1 && order[1] == 2 && order[2] == 0,
	      "sort: llquantize rows by weighted sum");

	for (i = 0; i < 3; i++) {
		r[i].val.kind = DTF_LQUANTIZE;
		dtf_lquant_init(&r[i].val.hist.lq, 0, 9, 1);
		memset(b[i], 0, sizeof(b[i]));
	}
	b[0][1] = 2;	/* two zeros */
	b[1][1] = 1;	/* one zero */
	b[2][0] = 1;	/* one below 0, weighs -1 */
	dtf_agg_sort(&a, order);
	check(order[0] == 2 && order[1] == 1 && order[2] == 0,
	      "sort: lquantize rows by sum, then by count at zero");
}

/* ---- printa() with formats ---- */

static void test_printa(void)
{
	static int64_t q[DTF_QUANT_NBUCKETS];
	int64_t lb[11] = { 0 };
	struct dtf_value v[7];
	struct dtf_row r[7];
	struct dtf_agg a[7];
	static const char *const fmt[7] = {
		"@a = %@u\n", "@b = %@u\n", "@c = %@d\n", "@d = %@u\n",
		"@e = %@u\n", "@f = %@u\n", "@g = %@d\n",
	};
	struct out o;
	FILE *fp;
	int i;

	/* printa/tst.basics.d: avg(1), count(), lquantize(1, 1, 10),
	 * max(1), min(1), sum(1), quantize(1) */
	memset(v, 0, sizeof(v));
	v[0].kind = DTF_AVG;
	v[0].avg.count = 1;
	v[0].avg.sum = 1;
	v[1] = scalar(DTF_COUNT, 1);
	v[2].kind = DTF_LQUANTIZE;
	dtf_lquant_init(&v[2].hist.lq, 1, 10, 1);
	lb[dtf_lquant_index(&v[2].hist.lq, 1)]++;
	v[2].hist.b = lb;
	v[3] = scalar(DTF_MAX, 1);
	v[4] = scalar(DTF_MIN, 1);
	v[5] = scalar(DTF_SUM, 1);
	v[6].kind = DTF_QUANTIZE;
	q[dtf_quant_index(1)]++;
	v[6].hist.b = q;
	fp = out_open(&o);
	for (i = 0; i < 7; i++) {
		a[i] = one(&r[i], &v[i]);
		dtf_printa_fmt(fp, fmt[i], &a[i]);
	}
	expect(&o, r_printa_basics, "printa/tst.basics");
}

/* aggs/tst.stddev2.d: twelve stddev() of two values each, printa("%9@x") */
static void test_stddev(void)
{
	static const int64_t pairs[12][2] = {
		{ 0, 0 }, { 0x10, 0x20 }, { 0x100, 0x200 },
		{ 0x1000, 0x2000 }, { 0x10000, 0x20000 },
		{ 0x100000, 0x200000 }, { 0x1000000, 0x2000000 },
		{ 0x10000000, 0x20000000 }, { 0x20000000, 0x40000000 },
		{ 0x40000000, 0x80000000 }, { 0x80000000, 0x100000000 },
		{ 0x100000000, 0x200000000 },
	};
	static const int64_t eight[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct dtf_value v = { .kind = DTF_STDDEV };
	struct dtf_stddev sd = { 0 };
	struct dtf_row r;
	struct dtf_agg a;
	struct out o;
	FILE *fp = out_open(&o);
	int i;

	for (i = 0; i < 12; i++) {
		memset(&v.sd, 0, sizeof(v.sd));
		dtf_stddev_add(&v.sd, pairs[i][0]);
		dtf_stddev_add(&v.sd, pairs[i][1]);
		a = one(&r, &v);
		dtf_printa_fmt(fp, "%9@x\n", &a);
	}
	expect(&o, r_stddev2, "aggs/tst.stddev2 (without its first line)");

	for (i = 0; i < 8; i++)
		dtf_stddev_add(&sd, -eight[i]);
	check(sd.count == 8 && sd.sum == -40 && sd.sq[0] == 232 &&
	      sd.sq[1] == 0, "stddev: state of 8 values");
	v.sd = sd;
	a = one(&r, &v);
	dtf_agg(out_open(&o), &a);
	expect(&o, h_row_stddev, "stddev: 2,4,4,4,5,5,7,9 (negated) gives 2");
	dtf_stddev_add(&sd, INT64_MIN);
	check(sd.sq[1] == (1ULL << 62) && sd.sq[0] == 232,
	      "stddev: the sum of squares carries into 128 bits");
	check(dtf_stddev_value(&(struct dtf_stddev){ 0 }, 1) == 0,
	      "stddev: no values");
}

/* ---- keys and default rows ---- */

/* aggs/tst.signedkeys.d: quiet trace() of each size, then four
 * aggregations keyed by the same values, printed at exit under
 * aggsortkey. */
static void test_signedkeys(void)
{
	static const int sizes[4] = { 1, 2, 4, 8 };
	struct dtf_key k[4][5];
	struct dtf_row r[4][5];
	struct dtf_agg a[4];
	struct out o;
	FILE *fp = out_open(&o);
	int s, i;

	for (s = 0; s < 4; s++) {
		for (i = 0; i < 5; i++) {
			dtf_trace_int(fp, i - 2, sizes[s], 1, 1);
			dtf_trace_str(fp, "\n", 1);
			k[s][i] = ikey(i - 2, sizes[s], 1);
			r[s][i].keys = &k[s][i];
			r[s][i].nkeys = 1;
			r[s][i].val = scalar(DTF_SUM, i - 2);
		}
		if (s < 3)
			dtf_trace_str(fp, "\n", 1);
		a[s] = (struct dtf_agg){ r[s], 5, 1, { 1, 0, 0, 0 } };
	}
	dtf_exit(fp, a, 4);
	expect(&o, r_signedkeys, "aggs/tst.signedkeys");
}

static void test_rows(void)
{
	static const char *const frames[] = { "vmlinux`foo+0x10",
					      "vmlinux`bar" };
	struct dtf_key k[2], st = { .kind = DTF_KEY_STACK };
	struct dtf_row r;
	struct dtf_value v;
	struct dtf_agg a;
	struct out o;
	FILE *fp;

	/* aggs/tst.count_notquiet.d: not quiet, _DTRACE_TESTING; @a =
	 * count() ten times; tick-1005ms exits */
	fp = out_open(&o);
	dtf_header(fp, 1);
	dtf_probe_prefix(fp, 0, 0, "", "tick-1005ms", 1);
	dtf_clause_end(fp, 0);
	v = scalar(DTF_COUNT, 10);
	a = one(&r, &v);
	dtf_exit(fp, &a, 1);
	expect(&o, r_count_notquiet, "aggs/tst.count_notquiet");

	/* aggs/tst.typecast-key.d: @[(int32_t)1, 2] and @[(int64_t)1, 2]
	 * are one key of two ints, counted twice */
	k[0] = ikey(1, 4, 1);
	k[1] = ikey(2, 4, 1);
	r.keys = k;
	r.nkeys = 2;
	r.val = scalar(DTF_COUNT, 2);
	dtf_exit(out_open(&o), &a, 1);
	expect(&o, r_typecast_key, "aggs/tst.typecast-key");

	/* aggs/tst.min.d prints @a = min() as 100 at exit */
	v = scalar(DTF_MIN, 100);
	a = one(&r, &v);
	dtf_exit(out_open(&o), &a, 1);
	expect(&o, r_min, "aggs/tst.min");

	/* aggs/tst.chararray-key.d: a char[16] key "dtrace", count() */
	k[0] = skey("dtrace", 16);
	v = scalar(DTF_COUNT, 1);
	a = one(&r, &v);
	r.keys = k;
	r.nkeys = 1;
	dtf_exit(out_open(&o), &a, 1);
	expect(&o, r_chararray, "aggs/tst.chararray-key");

	k[0] = skey("bash", 0);
	k[1] = ikey(42, 4, 1);
	r.nkeys = 2;
	r.val = scalar(DTF_COUNT, 7);
	dtf_agg(out_open(&o), &a);
	expect(&o, h_row_keys, "row: string and int keys");

	st.stack.frames = frames;
	st.stack.n = 2;
	r.keys = &st;
	r.nkeys = 1;
	r.val = scalar(DTF_SUM, 3);
	dtf_agg(out_open(&o), &a);
	expect(&o, h_row_stack, "row: stack key");

	k[0] = skey("", 0);
	r.keys = k;
	r.val = scalar(DTF_COUNT, 1);
	dtf_agg(out_open(&o), &a);
	expect(&o, h_row_emptystr, "row: an empty string key is raw bytes");

	r.nkeys = 0;
	fp = out_open(&o);
	r.val.kind = DTF_AVG;
	r.val.avg = (struct dtf_avg){ 3, 10 };
	dtf_agg(fp, &a);
	r.val.avg = (struct dtf_avg){ 3, -10 };
	dtf_agg(fp, &a);
	expect(&o, h_row_avg, "row: avg 10/3 and -10/3");

	r.val = scalar(DTF_SUM, 10);
	a.normal = 3;
	dtf_agg(out_open(&o), &a);
	expect(&o, h_row_norm, "row: sum 10 normalized by 3");
}

static void test_sort(void)
{
	struct dtf_key k[4];
	struct dtf_row r[4];
	struct dtf_agg a = { r, 4, 1, { 0 } };
	static const char *const names[4] = { "c", "b", "x", "a" };
	static const int64_t vals[4] = { 5, 2, -1, 2 };
	int order[4], i;
	struct out o;

	for (i = 0; i < 4; i++) {
		k[i] = skey(names[i], 0);
		r[i].keys = &k[i];
		r[i].nkeys = 1;
		r[i].val = scalar(DTF_SUM, vals[i]);
	}
	dtf_agg_sort(&a, order);
	check(order[0] == 2 && order[1] == 3 && order[2] == 1 && order[3] == 0,
	      "sort: by value, ties by key");
	dtf_printa(out_open(&o), &a);
	expect(&o, h_sorted, "printa(@) without a format");
}

static void test_printa_keys(void)
{
	static const char *const frames[] = { "vmlinux`foo", "vmlinux`bar" };
	struct dtf_key k[4], st = { .kind = DTF_KEY_STACK };
	struct dtf_row r = { k, 4, { .kind = DTF_SUM } };
	struct dtf_agg a = { &r, 1, 1, { 0 } };
	struct out o;
	FILE *fp;

	k[0] = skey("k", 0);
	k[1] = ikey(-2, 4, 1);
	k[2] = ikey(-2, 4, 1);
	k[3] = ikey(-1, 1, 0);
	r.val.n = -7;
	dtf_printa_fmt(out_open(&o), "%s:%d:%x:%d:%@d:%@x:%%\n", &a);
	expect(&o, h_printa_keys, "printa: keys by conversion, value twice");
	a.normal = 2;
	dtf_printa_fmt(out_open(&o), "%@d %@u\n", &a);
	expect(&o, "-3 9223372036854775804\n",
	       "printa: a normalized sum divides signed under %d only");
	a.normal = 1;
	k[3] = ikey(-1, 1, 1);
	dtf_printa_fmt(out_open(&o), "%s:%hd:%hx:%hhd:%@hd\n", &a);
	expect(&o, "k:-2:fffe:-1:-7\n", "printa: h and hh narrow");

	r.nkeys = 0;
	r.val = scalar(DTF_COUNT, 5);
	dtf_printa_fmt(out_open(&o), "[%5@d] [%-8@u]\n", &a);
	expect(&o, h_printa_count, "printa: widths, flags, count unsigned");

	r.val.kind = DTF_AVG;
	r.val.avg = (struct dtf_avg){ 3, -10 };
	dtf_printa_fmt(out_open(&o), "%@d\n", &a);
	expect(&o, h_printa_avg, "printa: avg divides as unsigned");

	st.stack.frames = frames;
	st.stack.n = 2;
	r.keys = &st;
	r.nkeys = 1;
	r.val = scalar(DTF_COUNT, 3);
	fp = out_open(&o);
	dtf_printa_fmt(fp, "%k%@d\n", &a);
	dtf_printa_fmt(fp, "%-4k%@d\n", &a);
	expect(&o, h_printa_stack, "printa: %k and %-4k");
}

/* multiaggs/tst.zero.d's first printa(): @foo[123], @foo[789], @bar[456],
 * @bar[789] as sums of their keys, joined; a key one lacks is 0 there */
static void test_join(void)
{
	struct dtf_key k[4];
	struct dtf_row foo[2], bar[2];
	struct dtf_agg a[2] = { { foo, 2, 1, { 0 } }, { bar, 2, 1, { 0 } } };
	static const int fk[2] = { 123, 789 }, bk[2] = { 456, 789 };
	struct out o;
	int i;

	for (i = 0; i < 2; i++) {
		k[i] = ikey(fk[i], 4, 1);
		foo[i] = (struct dtf_row){ &k[i], 1, scalar(DTF_SUM, fk[i]) };
		k[2 + i] = ikey(bk[i], 4, 1);
		bar[i] = (struct dtf_row){ &k[2 + i], 1,
					   scalar(DTF_SUM, bk[i]) };
	}
	dtf_printa_join(out_open(&o), "%10d %@10d %@10d\n", a, 2);
	expect(&o, h_join_fmt, "printa(fmt, @foo, @bar): zeros, order");
	dtf_printa_join(out_open(&o), NULL, a, 2);
	expect(&o, h_join_default, "printa(@foo, @bar)");
	dtf_printa_join(out_open(&o), "%10d %@10d %@10d %@10d\n", a, 2);
	expect(&o, h_join_more, "printa: a third %@ repeats the last value");
}

/* ---- trace() and the probe lines ---- */

/* One actions/trace test: BEGIN { trace(X); exit(0); } under
 * _DTRACE_TESTING, not quiet; TRACE prints X. */
static FILE *trace_begin(struct out *o)
{
	FILE *fp = out_open(o);

	dtf_header(fp, 1);
	dtf_probe_prefix(fp, 0, 1, "", "BEGIN", 1);
	return fp;
}

static void trace_end(FILE *fp)
{
	dtf_clause_end(fp, 0);
	dtf_exit(fp, NULL, 0);
}

static void test_trace(void)
{
	static const char unprintable[9] = "aAbBc\5dD";
	struct out o;
	FILE *fp;

	fp = trace_begin(&o);
	dtf_trace_int(fp, -1, 1, 1, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN   -1\n\n",
	       "actions/trace/tst.int8_t");

	fp = trace_begin(&o);
	dtf_trace_int(fp, -1, 8, 0, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN  18446744073709551615\n\n",
	       "actions/trace/tst.uint64_t");

	fp = trace_begin(&o);
	dtf_trace_str(fp, "a", 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN   a"
		   "                                \n\n",
	       "actions/trace/tst.str");

	fp = trace_begin(&o);
	dtf_trace_str(fp, "", 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN "
		   "                                   \n\n",
	       "actions/trace/tst.str-empty");

	fp = trace_begin(&o);
	dtf_bytes(fp, unprintable, sizeof(unprintable), 33, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN \n"
		   "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e"
		   "  f  0123456789abcdef\n"
		   "         0: 61 41 62 42 63 05 64 44 00                  "
		   "     aAbBc.dD.\n\n\n",
	       "actions/trace/tst.array-char-unprintable");

	fp = trace_begin(&o);
	dtf_bytes(fp, "aAbBcCdD", 9, 33, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN   aAbBcCdD"
		   "                         \n\n",
	       "actions/trace/tst.array-char-str");

	fp = trace_begin(&o);
	dtf_bytes(fp, "aAbBcCdDe", 9, 33, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN   aAbBcCdDe"
		   "                        \n\n",
	       "actions/trace/tst.array-char-str-no-nul");

	fp = trace_begin(&o);
	dtf_bytes(fp, "aAbBc\0\0\0", 9, 33, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN   aAbBc"
		   "                            \n\n",
	       "actions/trace/tst.array-char-str-multi-nul");

	fp = trace_begin(&o);
	dtf_bytes(fp, "aA\0B\0C\0De", 9, 33, 0);
	trace_end(fp);
	expect(&o, "                   FUNCTION:NAME\n"
		   "                          :BEGIN \n"
		   "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e"
		   "  f  0123456789abcdef\n"
		   "         0: 61 41 00 42 00 43 00 44 65                  "
		   "     aA.B.C.De\n\n\n",
	       "actions/trace/tst.array-char-multi-nul");

	fp = trace_begin(&o);
	dtf_trace_int(fp, -1, 2, 1, 0);
	trace_end(fp);
	expect(&o, h_trace_int16, "trace((int16_t)-1) in BEGIN");

	fp = out_open(&o);
	dtf_trace_int(fp, -1, 1, 1, 0);
	dtf_trace_int(fp, -1, 2, 1, 0);
	dtf_trace_int(fp, -1, 4, 1, 0);
	dtf_trace_int(fp, -1, 8, 1, 0);
	dtf_trace_int(fp, -1, 1, 0, 0);
	dtf_trace_int(fp, -1, 2, 0, 0);
	dtf_trace_int(fp, -1, 4, 0, 0);
	dtf_trace_int(fp, -1, 8, 0, 0);
	dtf_trace_int(fp, -1, 1, 1, 1);
	fputc('|', fp);
	dtf_trace_int(fp, 255, 1, 0, 1);
	fputc('|', fp);
	dtf_trace_int(fp, 0xffff, 2, 1, 1);
	fputc('|', fp);
	dtf_trace_int(fp, -1, 2, 0, 1);
	expect(&o, h_trace_widths, "trace: widths by size and sign");

	fp = out_open(&o);
	dtf_header(fp, 0);
	dtf_probe_prefix(fp, 3, 1234, "vfs_read", "entry", 0);
	dtf_clause_end(fp, 0);
	dtf_clause_end(fp, 1);
	expect(&o, h_prefix, "header and prefix with CPU and ID");

	fp = out_open(&o);
	dtf_bytes(fp, "abc", 3, 5, 1);
	fputc('|', fp);
	dtf_bytes(fp, "abc\0", 5, 5, 1);
	fputc('|', fp);
	dtf_bytes(fp, "abc\0", 5, 5, 0);
	fputc('|', fp);
	dtf_bytes(fp, "abc\0x", 5, 5, 0);
	expect(&o, h_bytes, "bytes: string, padded string, raw");
}

static void test_flow(void)
{
	struct out o;
	FILE *fp;

	check(dtf_flow_kind("entry") == DTF_FLOW_ENTRY &&
	      dtf_flow_kind("method-entry") == DTF_FLOW_ENTRY &&
	      dtf_flow_kind("return") == DTF_FLOW_RETURN &&
	      dtf_flow_kind("carpentry") == DTF_FLOW_NONE &&
	      dtf_flow_kind("tick-1s") == DTF_FLOW_NONE,
	      "flowindent: entry and return names");
	fp = out_open(&o);
	dtf_flow_header(fp, 0);
	dtf_flow_prefix(fp, 1, 0, DTF_FLOW_ENTRY, 0, "vfs_read", "entry", 0);
	dtf_clause_end(fp, 0);
	dtf_flow_prefix(fp, 1, 2, DTF_FLOW_NONE, 0, "vfs_read", "probe", 0);
	dtf_clause_end(fp, 0);
	dtf_flow_prefix(fp, 1, 0, DTF_FLOW_RETURN, 1, "read", "return", 0);
	dtf_clause_end(fp, 0);
	dtf_flow_header(fp, 1);
	dtf_flow_prefix(fp, 1, 40, DTF_FLOW_ENTRY, 0, "f", "entry", 1);
	dtf_clause_end(fp, 0);
	expect(&o, h_flow, "flowindent: header and prefixes");
}

int main(void)
{
	test_quantize();
	test_lquantize();
	test_llquantize();
	test_hist_sort();
	test_llq_keys();
	test_llq_zero();
	test_printa();
	test_stddev();
	test_signedkeys();
	test_rows();
	test_sort();
	test_printa_keys();
	test_join();
	test_trace();
	test_flow();
	return check_summary();
}
