/* report.c - how run/ says what happened: a failure is recorded in the
 * tracer (t->err) for main.c to print, once, as the reason sonde stops;
 * warnings and -v's notes are printed as they happen. */
#include "run/tracer.h"

#include <stdarg.h>
#include <stdlib.h>

int rt_fail(struct tracer *t, int err, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	/* the first failure is the reason; later ones follow from it */
	if (!t->err)
		t->err = msg;
	else
		free(msg);
	return err > 0 ? -err : err;
}

void rt_warn(struct tracer *t, const char *fmt, ...)
{
	va_list ap;

	fputs(t && t->pr.dtrace ? "dtrace: " : "sonde: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
