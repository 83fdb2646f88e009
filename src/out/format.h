/* format.h - printf-style formatting and ASCII rendering of aggregations.
 *
 * The runtime formats events (fmt_print, over the pieces of
 * lang/printf.h's fmt_parse, which sema also uses to check a format at
 * compile time) and renders histograms and stats exactly as bpftrace
 * 0.17 prints them.
 */
#ifndef SONDE_FORMAT_H
#define SONDE_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "lang/printf.h"

/* A runtime argument. */
struct fmt_arg {
	int is_str;		/* 1: s/slen valid; 0: i valid */
	int is_buf;		/* with is_str: slen bytes, NULs included */
	int is_signed;		/* for integers: how to read i */
	int size;		/* for integers: their type's bytes (D's
				 * printf prints them so), 0 if unknown */
	uint64_t i;		/* integer value (bits) */
	const char *s;		/* string bytes, not necessarily NUL-terminated */
	size_t slen;		/* max bytes of s; stop at first NUL */
};

/* Format FMT with ARGS into F, the way bpftrace's printf does (C printf
 * semantics: %d of an unsigned value prints it as signed 64-bit etc.).
 * Backslash escapes in the format were already resolved by the lexer.
 * Returns 0, or -1 if the format does not parse. */
int fmt_print(FILE *f, const char *fmt, size_t len,
	      const struct fmt_arg *args, int nargs);

/* Format one conversion P (fmt_parse's or fmt_parse_d's) with A, as
 * snprintf would, integers SIZE bytes wide (1, 2, 4 or 8: the length
 * modifier's), and write the result up to its first NUL (as bpftrace
 * writes a C string). */
void fmt_convert(FILE *f, const struct fmt_piece *p, const struct fmt_arg *a,
		 int size);

/* Bytes P[0..LEN) as %r prints them (bpftrace 0.17): MODE 0 writes
 * printable ASCII as it is and other bytes as \xNN, 'x' every byte as
 * \xNN, 'h' every byte as two hex digits, separated by spaces. */
void fmt_bytes(FILE *f, const uint8_t *p, size_t len, char mode);
/* printf's %gr: GFP flags FLAGS as the kernel names them
 * (GFP_KERNEL|__GFP_ZERO), what no name covers as 0xN (gfp.c). */
void fmt_gfp(FILE *f, uint64_t flags);

/* ntop(): the 24-byte value {u64 af, u8 addr[16]} as inet_ntop writes
 * it into BUF (at least 46 bytes); "" for an unknown family. */
void fmt_inet(char *buf, size_t cap, const uint8_t *v);

/* macaddr(): 6 bytes as "AA:BB:CC:DD:EE:FF" into BUF (18 bytes). */
void fmt_mac(char *buf, size_t cap, const uint8_t *v);

/* Log2 histogram.  bucket[0] counts values < 0, bucket[1] the value 0,
 * bucket[k] for k >= 2 values in [2^(k-2), 2^(k-1)).  NB buckets (<= 66).
 * Prints the rows exactly as bpftrace 0.17 does, from the first non-zero
 * bucket to the last non-zero one, with 52-wide '@' bars, and nothing if
 * every bucket is zero. */
void fmt_hist(FILE *f, const uint64_t *bucket, int nb);

/* fmt_hist for print(@h, top, div): counts are printed divided by DIV
 * (0 means 1) but bars and trimming use the undivided counts, as
 * bpftrace 0.17 does.  fmt_hist(f, b, nb) == fmt_hist_div(f, b, nb, 1).
 * (lhist ignores div in bpftrace 0.17, so there is no fmt_lhist_div.)
 * COLOR draws the bars in colour (for a terminal). */
/* hist(x, k) rows, 2^BITS buckets per power of two (0: fmt_hist_div). */
void fmt_hist_k(FILE *f, const uint64_t *bucket, int nb, uint64_t div,
		bool color, int bits);
void fmt_hist_div(FILE *f, const uint64_t *bucket, int nb, uint64_t div,
		  bool color);

/* Linear histogram lhist(v, min, max, step).  bucket[0] counts v < min,
 * bucket[1 + i] values in [min + i*step, min + (i+1)*step), the last
 * bucket (index nb - 1) v >= max.  nb == (max - min) / step + 2. */
void fmt_lhist(FILE *f, const uint64_t *bucket, int nb,
	       int64_t min, int64_t max, int64_t step, bool color);

/* The value avg() prints: TOTAL / COUNT truncated toward zero (C
 * division), 0 when COUNT is 0.  Also the "average" of fmt_stats. */
int64_t fmt_average(uint64_t count, int64_t total);

/* "count N, average N, total N" (no newline), as bpftrace prints stats. */
void fmt_stats(FILE *f, uint64_t count, int64_t total);

/* time(fmt) and strftime(fmt, ns): format wall-clock time NS
 * (nanoseconds since the epoch) with strftime(3) plus bpftrace's %f
 * (microseconds, 6 digits).  Writes at most CAP-1 bytes. */
size_t fmt_time(char *buf, size_t cap, const char *fmt, uint64_t epoch_ns);

struct type;
/* The text a TY_STRERROR value V stands for (its nelem says which):
 * strerror's, a signal's (strsignal, "N/A" past 64), a system call's
 * name ("" when unknown); BUF holds it when it is made. */
const char *pr_errname(const struct type *t, int64_t v, char *buf,
		       size_t cap);

#endif
