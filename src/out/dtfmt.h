/* dtfmt.h - DTrace's text output, byte for byte: the quantize, lquantize
 * and llquantize tables, aggregation values and rows, the default
 * printing of whole aggregations, printa() with a format, trace(), the
 * probe-firing prefix and its header.  Values in, text out: nothing here
 * knows about BPF or maps, so the D runtime only has to read its maps
 * into these structs.
 *
 * The reference is Oracle's dtrace-utils (libdtrace/dt_consume.c,
 * dt_printf.c, dt_aggregate.c, cmd/dtrace.c) and its expected outputs
 * under test/unittest; where illumos DTrace prints differently the
 * comment of the function says so. */
#ifndef SONDE_DTFMT_H
#define SONDE_DTFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- quantize(): power-of-two buckets ---- */

/* 63 negative buckets, zero, 63 positive ones: DTrace's
 * DTRACE_QUANTIZE_NBUCKETS and DTRACE_QUANTIZE_ZEROBUCKET. */
#define DTF_QUANT_NBUCKETS	127
#define DTF_QUANT_ZERO		63

/* The bucket quantize() adds V to: -2^62 or less in 0, ..., -1 in 62, 0
 * in 63, 1 in 64, [2^k, 2^(k+1)) in 64 + k.  A negative V goes to the
 * bucket whose label is the first one at or above it (-3 counts in -2). */
/* Walltimestamp NS (ns since the epoch) as DTrace's %Y prints it,
 * "2026 Nov 27 10:15:01", or %T, RFC 822's "Fri, 27 Nov 2026 10:15:01
 * UTC", in local time, in BUF (N bytes); returns BUF. */
const char *dtf_walltime(char *buf, size_t n, int64_t ns, char conv);

int dtf_quant_index(int64_t v);

/* The label (lowest value) of bucket I, 0 <= I < DTF_QUANT_NBUCKETS. */
int64_t dtf_quant_value(int i);

/* The table of DTF_QUANT_NBUCKETS counts B, each divided by NORMAL
 * (normalize(); 1 when unset): a newline, the value/Distribution/count
 * header, then the rows from one before the first non-empty bucket to
 * one after the last (-1, 0 and 1 when all are empty). */
void dtf_quantize(FILE *fp, const int64_t *b, uint64_t normal);

/* ---- lquantize(value, base, limit, step) ---- */

/* Bucket 0 counts values below BASE, bucket 1 + k the values in
 * [BASE + k*STEP, BASE + (k+1)*STEP), bucket LEVELS + 1 those at or
 * above BASE + LEVELS*STEP. */
struct dtf_lquant {
	int32_t base;
	uint16_t step;
	uint16_t levels;	/* (limit - base) / step */
};

/* Fill LQ from lquantize()'s arguments (STEP 1 when D omits it); 0, or
 * -EINVAL when DTrace's compiler would refuse them (step < 1, limit <=
 * base, more than 65535 levels, bounds outside int32). */
int dtf_lquant_init(struct dtf_lquant *lq, int64_t base, int64_t limit,
		    int64_t step);

/* LEVELS + 2: the number of counts a row carries. */
int dtf_lquant_nbuckets(const struct dtf_lquant *lq);

/* The bucket V counts in (64-bit compare, as dtrace-utils' BPF code does;
 * illumos' kernel truncated V to 32 bits first). */
int dtf_lquant_index(const struct dtf_lquant *lq, int64_t v);

/* The table of dtf_lquant_nbuckets() counts B: labels "< BASE" and
 * ">= LIMIT" for the two outer buckets; the same row rules as
 * dtf_quantize() (buckets 0..2 when all are empty). */
void dtf_lquantize(FILE *fp, const struct dtf_lquant *lq, const int64_t *b,
		   uint64_t normal);

/* ---- llquantize(value, factor, low, high, nsteps): log-linear ---- */

/* dtrace-utils' layout, symmetric around zero: bucket 0 counts values
 * <= -factor^(high+1); then for each magnitude from high down to low
 * (nsteps - nsteps/factor) negative buckets; then "bin0", values with
 * |v| < factor^low; the positive buckets mirrored; last the values >=
 * factor^(high+1).  A bucket is labelled with its lowest |value|. */
struct dtf_llquant {
	uint16_t factor;
	uint16_t lmag;
	uint16_t hmag;
	uint16_t steps;
};

/* Fill LQ; 0, or -EINVAL for arguments DTrace refuses (factor < 2,
 * low > high, steps not a multiple of factor when steps > factor, or a
 * divisor of factor when steps < factor, factor^(high+1) over 2^63). */
int dtf_llquant_init(struct dtf_llquant *lq, int64_t factor, int64_t low,
		     int64_t high, int64_t steps);

/* 2 * (high - low + 1) * (steps - steps/factor) + 3. */
int dtf_llquant_nbuckets(const struct dtf_llquant *lq);

/* The index of bin0 in the layout above. */
int dtf_llquant_zero(const struct dtf_llquant *lq);

/* The bucket V counts in. */
int dtf_llquant_index(const struct dtf_llquant *lq, int64_t v);

/* The lowest |value| of the bucket POS places from bin0 (1 <= POS <=
 * dtf_llquant_zero(), the last being the overflow bucket: factor^(high+1));
 * 0 for a "ghost" bucket, which no value reaches and no row shows. */
uint64_t dtf_llquant_label(const struct dtf_llquant *lq, int pos);

/* The table of dtf_llquant_nbuckets() counts B: rows from one before the
 * first non-empty bucket to one after the last, buckets without a label
 * skipped (the "ghost" buckets of low == 0 and steps > factor), bin0 as
 * "0", "< S" or "abs() < S". */
void dtf_llquantize(FILE *fp, const struct dtf_llquant *lq,
		    const int64_t *b, uint64_t normal);

/* ---- avg() and stddev() state ---- */

/* avg(): the number of values and their sum. */
struct dtf_avg {
	uint64_t count;
	int64_t sum;
};

/* stddev(): count, sum, and the sum of squares as 128 bits, as DTrace
 * keeps them (sq[0] the low half). */
struct dtf_stddev {
	uint64_t count;
	int64_t sum;
	uint64_t sq[2];
};

/* Add V to SD as DTrace's aggregating function does: count + 1, sum + V
 * (wrapping), |V|^2 added to the 128-bit sum of squares. */
void dtf_stddev_add(struct dtf_stddev *sd, int64_t v);

/* DTrace's integer standard deviation: sqrt(sq/normal/count -
 * (sum/normal/count)^2), every division truncating, the square root the
 * floor of the exact root of the 128-bit difference; 0 when count is 0. */
uint64_t dtf_stddev_value(const struct dtf_stddev *sd, uint64_t normal);

/* ---- aggregation values, keys and rows ---- */

enum dtf_kind {
	DTF_COUNT, DTF_SUM, DTF_MIN, DTF_MAX, DTF_AVG, DTF_STDDEV,
	DTF_QUANTIZE, DTF_LQUANTIZE, DTF_LLQUANTIZE
};

/* One aggregation value, tagged by its kind.  A histogram's buckets are
 * borrowed, in DTrace's bucket order (see the index functions above). */
struct dtf_value {
	enum dtf_kind kind;
	union {
		int64_t n;			/* count, sum, min, max */
		struct dtf_avg avg;
		struct dtf_stddev sd;
		struct {
			const int64_t *b;
			union {
				struct dtf_lquant lq;
				struct dtf_llquant llq;
			};
		} hist;
	};
};

enum dtf_key_kind { DTF_KEY_INT, DTF_KEY_STR, DTF_KEY_STACK };

/* One key of a row. */
struct dtf_key {
	enum dtf_key_kind kind;
	union {
		struct {
			int64_t v;
			uint8_t size;		/* 1, 2, 4 or 8 bytes (0: 8) */
			uint8_t is_signed;
		} i;
		struct {
			const char *s;		/* NUL-terminated */
			size_t size;		/* the record: strsize, or a
						 * char array's length; 0
						 * for strlen(s) + 1 */
		} str;
		struct {
			const char *const *frames;	/* symbolized */
			int n;
		} stack;
	};
};

/* One row: its keys, in order, and its value. */
struct dtf_row {
	const struct dtf_key *keys;
	int nkeys;
	struct dtf_value val;
};

/* DTrace's options of the order of aggregation rows. */
struct dtf_sort {
	int key;		/* aggsortkey: by key, then value */
	int rev;		/* aggsortrev: the other way round */
	int pos;		/* aggsortpos: printa(@a, @b): by the value
				 * of this one first */
	int keypos;		/* aggsortkeypos: by this key first */
};

/* One aggregation: its rows, in any order, and its normalize() divisor
 * (0 or 1 when unset).  All rows have the same kind. */
struct dtf_agg {
	const struct dtf_row *rows;
	int nrows;
	uint64_t normal;
	struct dtf_sort sort;
};

/* The value as printed after a row's keys: " %16lld" for count, sum,
 * min, max (divided by NORMAL as unsigned, printed signed, as DTrace
 * does), avg (signed division) and " %16llu" for stddev; a histogram's
 * table. */
void dtf_value(FILE *fp, const struct dtf_value *v, uint64_t normal);

/* One key as printed in a row: integers by size " %3d" (1 byte, shown
 * unsigned), " %5d" (2, unsigned), " %8d" (4), " %16lld" (8); strings
 * as dtf_bytes() of their record with width 50; stacks as a newline and
 * one frame a line indented 14 columns. */
void dtf_key(FILE *fp, const struct dtf_key *k);

/* One row: its keys, its value, a newline. */
void dtf_row(FILE *fp, const struct dtf_row *r, uint64_t normal);

/* DTrace's order of the rows of one aggregation: value ascending (a
 * histogram by the sum of label * count, then its count at zero), ties
 * by key (integers unsigned, strings bytewise); key first under
 * aggsortkey (from key aggsortkeypos on), all reversed under
 * aggsortrev.  Fills ORDER with NROWS
 * row indexes; returns 0 or -ENOMEM. */
int dtf_agg_sort(const struct dtf_agg *a, int *order);

/* An aggregation the script did not printa(), as dtrace prints it at
 * exit: each row in dtf_agg_sort() order.  -ENOMEM or 0. */
int dtf_agg(FILE *fp, const struct dtf_agg *a);

/* What dtrace prints when tracing stops: a newline, then each of the N
 * aggregations not yet printa()'d, in the order given (their order of
 * declaration), one after the other with no line between.  -ENOMEM or 0. */
int dtf_exit(FILE *fp, const struct dtf_agg *aggs, int n);

/* printa(@a) without a format: a newline, then the rows as dtf_agg(). */
int dtf_printa(FILE *fp, const struct dtf_agg *a);

/* printa(FMT, @a): each row, in dtf_agg_sort() order, through the format:
 * a %@ conversion (%@d, %@u, %@x, %9@x, ...) takes the value (count as
 * uint64_t, the rest int64_t; a histogram prints its table whatever the
 * conversion), the others take the keys in order (%d of an unsigned key
 * prints unsigned, %x of a 4-byte key 32 bits; %s a string, %k a stack);
 * %% prints %.  A conversion left without a key prints nothing.
 * -ENOMEM or 0. */
int dtf_printa_fmt(FILE *fp, const char *fmt, const struct dtf_agg *a);

/* printa(FMT, @a, @b, ...) of N aggregations with the same keys: one row
 * per key found in any of them, a missing value being the zero of its
 * aggregation; rows ordered by the first aggregation's value, then the
 * second's..., then the key.  Under FMT the i-th %@ conversion takes the
 * i-th aggregation's value (the last one again past N); FMT NULL prints
 * as printa(@a, @b): a newline, then keys and each value in its column.
 * -ENOMEM or 0. */
int dtf_printa_join(FILE *fp, const char *fmt, const struct dtf_agg *aggs,
		    int n);

/* ---- trace() and the probe-firing lines ---- */

/* trace() of an integer of SIZE bytes: quiet "%d"/"%u" of its value;
 * otherwise " %3d", " %5d", " %10d", " %19d" signed and " %3u", " %5u",
 * " %10u", " %20u" unsigned, by size (dtrace-utils; illumos printed
 * " %3d", " %5d", " %8d", " %16lld" with 1- and 2-byte values as
 * unsigned). */
void dtf_trace_int(FILE *fp, int64_t v, int size, int is_signed, int quiet);

/* trace() of a string: quiet "%s", otherwise "  %-33s". */
void dtf_trace_str(FILE *fp, const char *s, int quiet);

/* DTrace's dt_print_bytes(): N bytes that are printable text (isprint,
 * isspace, \a or \b) up to a NUL followed only by NULs, or text filling
 * all N, print as a string: "%s" when QUIET, else "  %-*s" of WIDTH;
 * anything else (and an empty string) as dtf_rawbytes(). */
void dtf_bytes(FILE *fp, const void *buf, size_t n, int width, int quiet);

/* The hex dump of tracemem() and of unprintable bytes: a newline, a
 * column header, then 16 bytes a line with offset, hex and text. */
void dtf_rawbytes(FILE *fp, const void *buf, size_t n);

/* The header line before the first probe's output when not quiet:
 * "CPU     ID                    FUNCTION:NAME"; only FUNCTION:NAME,
 * right-aligned in 32 columns, when TESTING (dtrace with _DTRACE_TESTING
 * in its environment). */
void dtf_header(FILE *fp, int testing);

/* The start of a probe firing's line when not quiet: "%3d %6d %32s "
 * of CPU, probe ID and "FUNC:NAME"; "%32s " of "FUNC:NAME" only when
 * TESTING. */
void dtf_probe_prefix(FILE *fp, int cpu, int id, const char *func,
		      const char *name, int testing);

/* flowindent (dtrace -F): how a probe moves the indentation. */
enum dtf_flow { DTF_FLOW_NONE, DTF_FLOW_ENTRY, DTF_FLOW_RETURN };

/* The flow of a probe NAME: entry for "entry" or a name ending in
 * "-entry", return likewise, none otherwise ("carpentry" is none). */
enum dtf_flow dtf_flow_kind(const char *name);

/* The header under -F: "CPU FUNCTION" ("%3s %-41s"), FUNCTION alone when
 * TESTING. */
void dtf_flow_header(FILE *fp, int testing);

/* The start of a firing's line under -F: INDENT spaces, then " -> FUNC"
 * for an entry and " <- FUNC" for a return (" => " and " <= " for the
 * syscall provider, SYSCALL), "| FUNC:NAME" otherwise, left-aligned in
 * 41 columns after "%3d " of the CPU (no CPU when TESTING).  The caller
 * keeps INDENT: 2 more after printing an entry, 2 less before printing
 * a return. */
void dtf_flow_prefix(FILE *fp, int cpu, int indent, enum dtf_flow flow,
		     int syscall, const char *func, const char *name,
		     int testing);

/* The end of a clause that recorded data: a newline unless QUIET. */
void dtf_clause_end(FILE *fp, int quiet);

struct fmt_arg;
/* printf() of D: FMT (LEN bytes, checked by fmt_parse_d) with ARGS, a
 * '*' or ".*" taking the next integer argument (a negative width
 * left-aligns, a negative precision is none).  Integers print at their
 * type's size (fmt_arg.size; 64 bits when unknown) unless a length
 * modifier says otherwise, %d of an unsigned type as %u, %p in hex
 * without "0x", %i as %d; %a, %A, %S and %Y
 * print the text the caller put into their argument (a symbol, an
 * escaped string, a date).  Returns -1 if FMT does not parse. */
int dtf_printf(FILE *fp, const char *fmt, size_t len,
	       const struct fmt_arg *args, int nargs);

#endif
