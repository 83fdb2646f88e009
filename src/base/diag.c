/* diag.c - printing compile errors the same way everywhere:
 *
 *   FILE:LINE:COL: error[TAG]: message
 *   <the source line>
 *           ^~~~
 */
#include "base/diag.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const tag_names[] = {
#define X(tag, what) #tag,
#include "base/diag.def"
#undef X
};

const char *diag_tag_name(enum diag_tag t)
{
	return (unsigned)t < DIAG_NTAGS ? tag_names[t] : "E_?";
}

/* Print [FROM, TO) as one terminal column per character: tabs become
 * spaces, control bytes and bytes that are not UTF-8 become '?', so the
 * caret line can count columns the same way.  Returns the number of
 * columns from FROM to AT (AT in [FROM, TO]) in *COL_AT and from AT to
 * AT_END in *COL_LEN. */
static void show_text(FILE *out, const char *from, const char *to,
		      const char *at, const char *at_end, int *col_at,
		      int *col_len)
{
	int col = 0;

	*col_at = *col_len = -1;
	for (const char *p = from; p < to;) {
		unsigned char c = (unsigned char)*p;
		int n = c >= 0x80 ? utf8_len(p, to) : 1;

		if (p >= at && *col_at < 0)
			*col_at = col;
		if (p >= at_end && *col_len < 0)
			*col_len = col - *col_at;
		if (n > 1)
			fwrite(p, 1, (size_t)n, out);
		else
			fputc(c == '\t' ? ' ' : (c < 32 || c >= 127) ? '?' : c, out);
		p += n ? n : 1;
		col++;
	}
	if (*col_at < 0)
		*col_at = col;
	if (*col_len < 0)
		*col_len = col - *col_at;
}

struct diag_file diag_source(const struct diag *d, int file)
{
	struct diag_file f = { d->file, d->src, d->srclen, { 0, 0, 0, 0, 0, 0 } };

	if (file > 0 && file < d->nfiles && d->files)
		f = d->files[file];
	return f;
}

void diag_show(struct diag *d, struct loc loc)
{
	struct diag_file f = diag_source(d, loc.file);
	const char *s = f.src, *end = f.src + f.len, *ls, *le;
	const char *at, *at_end, *from, *to;
	int i, col, width;

	if (!s || loc.off < 0 || (size_t)loc.off > f.len)
		return;
	at = s + loc.off;
	ls = at;
	while (ls > s && ls[-1] != '\n')
		ls--;
	le = at;
	while (le < end && *le != '\n')
		le++;
	at_end = loc.len > le - at ? le : at + (loc.len > 0 ? loc.len : 0);
	/* Very long lines are cut around the column to stay readable. */
	from = ls;
	to = le;
	if (le - ls > 200) {
		from = at - 80 < ls ? ls : at - 80;
		to = from + 160 > le ? le : from + 160;
	}
	fputs(from > ls ? "..." : "", d->out);
	show_text(d->out, from, to, at, at_end < to ? at_end : to, &col, &width);
	fputs(to < le ? "...\n" : "\n", d->out);
	if (from > ls)
		col += 3;
	fprintf(d->out, "%*s^", col, "");
	if (width > 120)
		width = 120;
	for (i = 1; i < width; i++)
		fputc('~', d->out);
	fputc('\n', d->out);
}

/* A message may quote script text: control characters (an escape
 * sequence would reach the terminal) and bytes that are not UTF-8
 * become '?', as in the source line below it; and one quoting a huge
 * token (a probe of a megabyte) keeps its start and end, cut at
 * characters. */
#define MSG_MAX 400

static void __attribute__((format(printf, 3, 0)))
put_message(FILE *out, bool layout, const char *fmt, va_list ap)
{
	char *msg, *end, *w;
	size_t n, head = MSG_MAX * 2 / 3, tail;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("(no memory for the message)", out);
		return;
	}
	end = msg + strlen(msg);
	w = msg;
	for (const char *p = msg; p < end;) {
		unsigned char c = (unsigned char)*p;
		int len = c >= 0x80 ? utf8_len(p, end) : 1;

		if (len > 1) {
			memmove(w, p, (size_t)len);
			w += len;
			p += len;
			continue;
		}
		/* LAYOUT: DTrace's messages of several lines keep them */
		*w++ = (c < 32 && !(layout && (c == '\n' || c == '\t'))) ||
		       c >= 127 ? '?' : (char)c;
		p++;
	}
	*w = 0;
	n = (size_t)(w - msg);
	if (n <= MSG_MAX) {
		fputs(msg, out);
		free(msg);
		return;
	}
	tail = n - MSG_MAX / 4;
	while (head > 0 && ((unsigned char)msg[head] & 0xc0) == 0x80)
		head--;
	while (tail < n && ((unsigned char)msg[tail] & 0xc0) == 0x80)
		tail++;
	fprintf(out, "%.*s...%s", (int)head, msg, msg + tail);
	free(msg);
}

/* Where FILE (an included file) was included, up to the script: the
 * chain is as long as the nesting of includes (bounded), and each file
 * was included from one registered before it, so it ends. */
static void included_from(struct diag *d, int file)
{
	for (int n = 0; file > 0 && file < d->nfiles && n < d->nfiles; n++) {
		struct diag_file f = d->files[file];

		if (f.from.line < 0)	/* the standard library */
			break;
		if (f.from.line > 0) {
			fprintf(d->out, "%s:%d:%d: note: %s is included here\n",
				diag_source(d, f.from.file).name, f.from.line,
				f.from.col, f.name);
			diag_show(d, f.from);
		} else {
			fprintf(d->out, "note: %s is included by --include\n",
				f.name);
		}
		file = f.from.file;
		if (f.from.line <= 0)
			break;
	}
}

/* The macros an expanded node came from, innermost first (the chain is
 * as deep as the expansion was, which lang/macro.c bounds). */
const struct diag_exp *diag_exp_of(const struct diag *d, int exp)
{
	return d->exps[exp - 1];
}

static void expanded_from(struct diag *d, int exp)
{
	const struct diag_exp *e;
	int n = 0;

	for (; exp > 0 && exp <= d->nexps; exp = e->up, n++) {
		e = diag_exp_of(d, exp);
		if (n == 8) {	/* the innermost are the telling ones */
			while (e->up)
				e = diag_exp_of(d, e->up), n++;
			fprintf(d->out, "note: and %d more macros\n", n - 8);
		}
		fprintf(d->out, "%s:%d:%d: note: in macro %s\n",
			diag_source(d, e->at.file).name, e->at.line, e->at.col,
			e->macro);
		diag_show(d, e->at);
	}
}

/* DTrace's tag for each of sonde's: the class of error D reports it
 * as, where the place itself names no finer one. */
static const char *const d_tags[] = {
	[E_LEX] = "D_SYNTAX", [E_PREPROC] = "D_PRAGMA_MALFORM",
	[E_SYNTAX] = "D_SYNTAX", [E_LIMIT] = "D_SYNTAX",
	[E_PROBE] = "D_PDESC_ZERO", [E_UNDEF] = "D_IDENT_UNDEF",
	[E_SCOPE] = "D_DECL_IDRED", [E_TYPE] = "D_OP_INCOMPAT",
	[E_ARGS] = "D_PROTO_LEN", [E_FUNC] = "D_FUNC_UNDEF",
	[E_IDENT] = "D_IDENT_UNDEF", [E_CONTEXT] = "D_ACT_SPEC",
	[E_FORMAT] = "D_PRINTF_ARG_TYPE", [E_MAP] = "D_AGG_REDEF",
	[E_POSITIONAL] = "D_MACRO_UNDEF", [E_STACK] = "D_NOREG",
	[E_LOAD] = "D_DOF_LOAD", [E_UNSAFE] = "D_ACT_DESTR",
	[E_CONFIG] = "D_PRAGMA_OPTSET", [E_OPTION] = "D_OPT_UNKNOWN",
	[E_ATTACH] = "D_PDESC_ZERO", [E_MACRO] = "D_SYNTAX",
	[E_IMPORT] = "D_SYNTAX", [E_FAIL] = "D_SYNTAX",
};

const char *diag_d_tag(enum diag_tag t)
{
	return (unsigned)t < DIAG_NTAGS && d_tags[t] ? d_tags[t] : "D_SYNTAX";
}

/* DTrace's own form of an error, tagged DTAG (shown with -x
 * errtags). */
static void __attribute__((format(printf, 4, 0)))
d_report(struct diag *d, struct loc loc, const char *dtag,
		     const char *fmt, va_list ap)
{
	if (d->dwhat && !strcmp(d->dwhat, "description"))
		fprintf(d->out, "dtrace: invalid probe specifier %s: ",
			d->file);
	else
		fprintf(d->out, "dtrace: failed to compile script %s: ",
			d->file);
	if (d->errtags)
		fprintf(d->out, "[%s] ", dtag);
	if (loc.line > 0)
		/* a predicate's names resolve as it is read, its types
		 * are checked at its clause's '{' */
		fprintf(d->out, "line %d: ", d->dline &&
			strcmp(dtag, "D_IDENT_UNDEF") ? d->dline : loc.line);
	put_message(d->out, true, fmt, ap);
	fputc('\n', d->out);
}

/* DTAG: D's tag for the message, NULL for the class of TAG. */
static void __attribute__((format(printf, 6, 0)))
vreport(struct diag *d, struct loc loc, const char *kind, enum diag_tag tag,
	const char *dtag, const char *fmt, va_list ap)
{
	/* dtrace stops at a program's first error: so does its output */
	if (d->d && d->nerrors && tag < DIAG_NTAGS)
		return;
	/* D: a directive's error is cpp's, on the program dtrace pipes
	 * to it, then dtrace's line */
	if (d->d && tag == E_PREPROC && !dtag) {
		fprintf(d->out, "/dev/stdin:%d: error: ", loc.line);
		put_message(d->out, true, fmt, ap);
		fprintf(d->out, "\ndtrace: failed to compile script %s: Preprocessor failed to process input program\n",
			d->file);
		return;
	}
	if (tag < DIAG_NTAGS && !dtag)
		dtag = diag_d_tag(tag);
	/* D: dtrace's line, which scripts read; at a terminal, the
	 * place in the source under it */
	if (d->d && tag < DIAG_NTAGS) {
		d_report(d, loc, dtag, fmt, ap);
		if (loc.line > 0 && !d->errtags && isatty(fileno(d->out)))
			diag_show(d, loc);
		return;
	}
	if (loc.line > 0)
		fprintf(d->out, "%s:%d:%d: ", diag_source(d, loc.file).name,
			loc.line, loc.col);
	else
		fprintf(d->out, "%s: ", d->file);
	if (tag < DIAG_NTAGS)
		fprintf(d->out, "%s[%s]: ", kind,
			d->d ? dtag : tag_names[tag]);
	else
		fprintf(d->out, "%s: ", kind);
	put_message(d->out, d->d, fmt, ap);
	fputc('\n', d->out);
	if (loc.line > 0)
		diag_show(d, loc);
	included_from(d, loc.file);
	expanded_from(d, loc.exp);
}

void diag_error(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(d, loc, tag, fmt, ap);
	va_end(ap);
}

void diag_verror(struct diag *d, struct loc loc, enum diag_tag tag,
		 const char *fmt, va_list ap)
{
	vreport(d, loc, "error", tag, NULL, fmt, ap);
	d->nerrors++;
}

void diag_error_d(struct diag *d, struct loc loc, enum diag_tag tag,
		  const char *dtag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "error", tag, dtag, fmt, ap);
	va_end(ap);
	d->nerrors++;
}

void diag_note(struct diag *d, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "note", DIAG_NTAGS, NULL, fmt, ap);
	va_end(ap);
}

void diag_warn(struct diag *d, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	if (d->no_warnings)
		return;
	va_start(ap, fmt);
	vreport(d, loc, "warning", DIAG_NTAGS, NULL, fmt, ap);
	va_end(ap);
}

/* An error, then longjmp to d->fatal (exit without one). */
static _Noreturn void __attribute__((format(printf, 5, 0)))
vfatal(struct diag *d, struct loc loc, enum diag_tag tag, const char *dtag,
       const char *fmt, va_list ap)
{
	vreport(d, loc, "error", tag, dtag, fmt, ap);
	d->nerrors++;
	if (d->fatal)
		longjmp(*d->fatal, 1);
	exit(1);
}

void diag_fatal(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfatal(d, loc, tag, NULL, fmt, ap);
}

void diag_fatal_d(struct diag *d, struct loc loc, enum diag_tag tag,
		  const char *dtag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfatal(d, loc, tag, dtag, fmt, ap);
}
