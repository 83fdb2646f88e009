/* printf.h - the printf format language of printf(), system() and
 * friends, parsed into pieces: sema checks a format with it at compile
 * time (argument count and types, the column of a bad conversion), and
 * out/format.c prints events by the same pieces. */
#ifndef SONDE_PRINTF_H
#define SONDE_PRINTF_H

#include <stddef.h>

/* What a conversion consumes. */
enum fmt_want {
	FMT_WANT_NONE,	/* literal text, or "%%" */
	FMT_WANT_INT,	/* d i u o x X c (and length modifiers) */
	FMT_WANT_STR,	/* s */
	FMT_WANT_BUF,	/* r rx rh: a buffer (buf()) */
};

/* One piece of a parsed format: literal text or one conversion. */
struct fmt_piece {
	enum fmt_want want;
	size_t off;		/* byte offset of the piece in the format */
	size_t len;		/* length in bytes in the format */
	char conv;		/* conversion char: d i u o x X c s p r,
				 * g for %gr, '%' for "%%", 0 for text */
	char rmode;		/* r: 'x' for %rx, 'h' for %rh, else 0 */
	char flags[7];		/* subset of "-+ #0'", NUL-terminated */
	int width;		/* -1 if absent */
	int prec;		/* -1 if absent */
	/* D formats only (fmt_parse_d): */
	unsigned char dyn;	/* FMT_DYN_WIDTH, FMT_DYN_PREC: '*' arguments */
	unsigned char agg;	/* %@: printa's aggregation value */
	char name[8];		/* D's conversion name: "d", "ld", "s", "a" */
	int size;		/* bytes the length modifier selects: 1 hh,
				 * 2 h, 8 l/ll, 0 none (the value's own) */
};

enum {
	FMT_DYN_WIDTH = 1,
	FMT_DYN_PREC = 2,
};

/* Parse FMT (length LEN, may contain no NULs) into at most MAX pieces.
 * Returns the number of pieces (possibly > MAX: then call again with a
 * bigger array), or -1 on a bad conversion with *ERR_OFF set to the
 * byte offset of the offending '%' and *ERR_MSG to a short English
 * message ("unknown conversion '%q'", "'*' width is not supported",
 * "format ends inside a conversion"). */
int fmt_parse(const char *fmt, size_t len, struct fmt_piece *out, int max,
	      size_t *err_off, const char **err_msg);

/* The same for D's printf()/printa() formats, as DTrace reads them:
 * flags "-+ #0'" and '?' (pointer width, 16), '*' and ".*" (dynamic
 * width and precision, each an integer argument before the value), '@'
 * (printa: the aggregation's value), D's conversion names (a A c d i o
 * u x X p s S Y k, e f g with l/h/ll/L/w modifiers, see printf.c).  On
 * a bad conversion returns -1 with *ERR_OFF the offset of its '%',
 * MSG (CAP bytes) the message DTrace gives ("format conversion #2 is
 * undefined: %q") and *TAG the D tag: "D_SYNTAX", or
 * "D_PRINTF_AGG_CONV" for %@ when AGG is false. */
int fmt_parse_d(const char *fmt, size_t len, struct fmt_piece *out, int max,
		int agg, size_t *err_off, char *msg, size_t cap,
		const char **tag);

#endif
