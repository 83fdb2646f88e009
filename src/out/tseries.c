/* tseries.c - printing a tseries() map's key: its intervals, merged
 * across CPUs, one row each, the value drawn on a 53-column scale from
 * the smallest value shown to the largest, as today's bpftrace draws
 * it:
 *
 *                  -5                                                  5
 *     hh:mm:ss.ms  |___________________________________________________|
 *     10:39:49.300 *                         .                         | -5
 *     10:39:49.400 |    *                    .                         | -4
 *                  v___________________________________________________v
 *                  -5                                                  5
 *
 * A value v sits at column (v - min) * 52 / (max - min), the ends
 * replacing the frame's '|'; a '.' marks zero when it lies inside.
 * With one distinct value the scale is that value - 1 to + 1.  An
 * interval without a value shows the empty frame. */
#include "out/printer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"

#define COLS 53		/* the scale's columns, both ends included */
#define MARGIN 13	/* "hh:mm:ss.mmm " */

struct interval {
	uint64_t num;		/* interval number, 0: none */
	int64_t value, sum;
	uint64_t count, last;	/* updates, time of the last one */
};

/* Merge the buckets of NCPU CPUs (each M->ts_n buckets of TS_BUCKET
 * bytes, the CPUs' values ALIGN_UP(value_size, 8) apart) into OUT,
 * indexed by the bucket's place; returns the latest interval number. */
static uint64_t merge(const struct mapinfo *m, const uint8_t *vals, int ncpu,
		      struct interval *out)
{
	size_t stride = (size_t)ALIGN_UP(m->value_size, 8);
	uint64_t latest = 0;

	memset(out, 0, sizeof(*out) * (size_t)m->ts_n);
	for (int c = 0; c < ncpu; c++) {
		for (int b = 0; b < m->ts_n; b++) {
			const uint8_t *p = vals + (size_t)c * stride +
					   (size_t)b * TS_BUCKET;
			uint64_t num, count, last;
			int64_t v;
			struct interval *o = &out[b];

			memcpy(&num, p, 8);
			memcpy(&v, p + 8, 8);
			memcpy(&count, p + 16, 8);
			memcpy(&last, p + 24, 8);
			if (!num || !count)
				continue;
			if (num > o->num) {	/* a newer interval wins */
				memset(o, 0, sizeof(*o));
				o->num = num;
			} else if (num < o->num) {
				continue;
			}
			switch (m->ts_mode) {
			case TS_SUM: case TS_AVG:
				o->sum += v;
				break;
			case TS_MIN:
				if (!o->count || v < o->value)
					o->value = v;
				break;
			case TS_MAX:
				if (!o->count || v > o->value)
					o->value = v;
				break;
			default:
				if (!o->count || last > o->last)
					o->value = v;
			}
			if (last > o->last)
				o->last = last;
			o->count += count;
			if (num > latest)
				latest = num;
		}
	}
	for (int b = 0; b < m->ts_n; b++) {
		struct interval *o = &out[b];

		if (m->ts_mode == TS_SUM)
			o->value = o->sum;
		else if (m->ts_mode == TS_AVG && o->count)
			o->value = o->sum / (int64_t)o->count;
	}
	return latest;
}

/* "hh:mm:ss.mmm" of the start of interval NUM, in local time: the
 * intervals count on the TAI clock, whole seconds from the wall
 * clock's, so that they start at round times (10:41:46.700). */
static void stamp(char *buf, size_t cap, const struct mapinfo *m,
		  uint64_t num, int64_t tai_to_real)
{
	int64_t ns = (int64_t)num * m->ts_interval + tai_to_real;
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;

	localtime_r(&sec, &tm);
	snprintf(buf, cap, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min,
		 tm.tm_sec, (int)(ns % 1000000000 / 1000000));
}

/* The scale's labels: MIN under the first column, MAX ending at the
 * last. */
static void labels(FILE *f, int64_t lo, int64_t hi)
{
	char a[32], b[32];
	int pad;

	snprintf(a, sizeof(a), "%" PRId64, lo);
	snprintf(b, sizeof(b), "%" PRId64, hi);
	pad = COLS - (int)strlen(a) - (int)strlen(b);
	fprintf(f, "%*s%s%*s%s\n", MARGIN, "", a, pad > 1 ? pad : 1, "", b);
}

static void frame(FILE *f, const char *left, char end)
{
	char line[COLS + 1];

	memset(line, '_', COLS);
	line[0] = line[COLS - 1] = end;
	line[COLS] = 0;
	fprintf(f, "%-*s%s\n", MARGIN, left, line);
}

/* A key's intervals to show: merged, from the oldest that has a value
 * (*FIRST) to the latest (*LATEST, 0 when none has), the values'
 * range [*LO, *HI], and what turns TAI into wall-clock nanoseconds. */
struct view {
	struct interval *iv;
	uint64_t first, latest;
	int64_t lo, hi, tai_to_real;
};

static bool view(struct view *v, const struct mapinfo *m, const uint8_t *vals,
		 int ncpu)
{
	struct timespec rt, tai;
	bool any = false;

	v->iv = xcalloc((size_t)m->ts_n, sizeof(*v->iv));
	v->latest = merge(m, vals, ncpu, v->iv);
	v->lo = INT64_MAX;
	v->hi = INT64_MIN;
	if (!v->latest)
		return false;
	v->first = v->latest >= (uint64_t)m->ts_n ?
		   v->latest - (uint64_t)m->ts_n + 1 : 1;
	for (uint64_t k = v->first; k <= v->latest; k++) {
		struct interval *o = &v->iv[k % (uint64_t)m->ts_n];

		if (o->num != k)
			continue;
		if (!any)
			v->first = k;
		any = true;
		v->lo = o->value < v->lo ? o->value : v->lo;
		v->hi = o->value > v->hi ? o->value : v->hi;
	}
	if (v->lo == v->hi) {
		v->lo--;
		v->hi++;
	}
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_TAI, &tai);
	/* whole seconds (leap seconds), read a moment apart */
	v->tai_to_real = (rt.tv_sec - tai.tv_sec) * 1000000000LL +
			 (rt.tv_nsec - tai.tv_nsec);
	v->tai_to_real = (v->tai_to_real + (v->tai_to_real < 0 ? -500000000 :
					    500000000)) / 1000000000 * 1000000000;
	return true;
}

void pr_tseries(FILE *f, const struct mapinfo *m, const uint8_t *vals,
		int ncpu)
{
	struct view v;
	__int128 span;

	if (!view(&v, m, vals, ncpu)) {
		free(v.iv);
		return;
	}
	span = (__int128)v.hi - v.lo;
	labels(f, v.lo, v.hi);
	frame(f, "hh:mm:ss.ms", '|');
	for (uint64_t k = v.first; k <= v.latest; k++) {
		struct interval *o = &v.iv[k % (uint64_t)m->ts_n];
		char ts[32], row[COLS + 1];

		memset(row, ' ', COLS);
		row[0] = row[COLS - 1] = '|';
		row[COLS] = 0;
		if (v.lo < 0 && v.hi > 0)
			row[(int)((__int128)(0 - v.lo) * (COLS - 1) / span)] = '.';
		stamp(ts, sizeof(ts), m, k, v.tai_to_real);
		if (o->num != k) {
			fprintf(f, "%s %s\n", ts, row);
			continue;
		}
		row[(int)((__int128)(o->value - v.lo) * (COLS - 1) / span)] = '*';
		fprintf(f, "%s %s %" PRId64 "\n", ts, row, o->value);
	}
	frame(f, "", 'v');
	labels(f, v.lo, v.hi);
	free(v.iv);
}

void pr_tseries_json(FILE *f, const struct mapinfo *m, const uint8_t *vals,
		     int ncpu)
{
	struct view v;
	bool first = true;

	fputc('[', f);
	if (view(&v, m, vals, ncpu)) {
		for (uint64_t k = v.first; k <= v.latest; k++) {
			struct interval *o = &v.iv[k % (uint64_t)m->ts_n];
			char ts[32];

			if (o->num != k)
				continue;
			stamp(ts, sizeof(ts), m, k, v.tai_to_real);
			fprintf(f, "%s{\"interval_start\": \"%s\", \"value\": %" PRId64 "}",
				first ? "" : ", ", ts, o->value);
			first = false;
		}
	}
	free(v.iv);
	fputc(']', f);
}
