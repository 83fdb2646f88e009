/* diag.c - printing compile errors the same way everywhere:
 *
 *   FILE:LINE:COL: error[TAG]: message
 *   <the source line>
 *           ^~~~
 */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const tag_names[] = {
#define X(tag, what) #tag,
#include "diag.def"
#undef X
};

const char *diag_tag_name(enum diag_tag t)
{
	return (unsigned)t < DIAG_NTAGS ? tag_names[t] : "E_?";
}

void diag_show(struct diag *d, struct loc loc)
{
	const char *s = d->src, *end = d->src + d->srclen, *ls, *le;
	int i, width;

	if (!s || loc.off < 0 || (size_t)loc.off > d->srclen)
		return;
	ls = s + loc.off;
	while (ls > s && ls[-1] != '\n')
		ls--;
	le = s + loc.off;
	while (le < end && *le != '\n')
		le++;
	/* Very long lines are cut around the column to stay readable. */
	if (le - ls > 200) {
		const char *from = s + loc.off - 80 < ls ? ls : s + loc.off - 80;
		const char *to = from + 160 > le ? le : from + 160;
		int skipped = (int)(from - ls);

		fputs(skipped ? "..." : "", d->out);
		for (const char *p = from; p < to; p++)
			fputc(*p == '\t' ? ' ' : ((unsigned char)*p < 32 ? '?' : *p), d->out);
		fputs(to < le ? "...\n" : "\n", d->out);
		i = (int)(s + loc.off - from) + (skipped ? 3 : 0);
	} else {
		for (const char *p = ls; p < le; p++)
			fputc(*p == '\t' ? ' ' : ((unsigned char)*p < 32 ? '?' : *p), d->out);
		fputc('\n', d->out);
		i = (int)(s + loc.off - ls);
	}
	fprintf(d->out, "%*s^", i, "");
	width = loc.len;
	if (loc.off + width > (int)(le - s))
		width = (int)(le - s) - loc.off;
	if (width > 120)
		width = 120;
	for (i = 1; i < width; i++)
		fputc('~', d->out);
	fputc('\n', d->out);
}

static void vreport(struct diag *d, struct loc loc, const char *kind,
		    enum diag_tag tag, const char *fmt, va_list ap)
{
	if (loc.line > 0)
		fprintf(d->out, "%s:%d:%d: ", d->file, loc.line, loc.col);
	else
		fprintf(d->out, "%s: ", d->file);
	if (tag < DIAG_NTAGS)
		fprintf(d->out, "%s[%s]: ", kind, tag_names[tag]);
	else
		fprintf(d->out, "%s: ", kind);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	if (loc.line > 0)
		diag_show(d, loc);
}

void diag_error(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "error", tag, fmt, ap);
	va_end(ap);
	d->nerrors++;
}

void diag_note(struct diag *d, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "note", DIAG_NTAGS, fmt, ap);
	va_end(ap);
}

void diag_fatal(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(d, loc, "error", tag, fmt, ap);
	va_end(ap);
	d->nerrors++;
	if (d->fatal)
		longjmp(*d->fatal, 1);
	exit(1);
}
