/* diag.h - compile diagnostics with file:line:col, caret and stable tag. */
#ifndef SONDE_DIAG_H
#define SONDE_DIAG_H

#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>

enum diag_tag {
#define X(tag, what) tag,
#include "base/diag.def"
#undef X
	DIAG_NTAGS
};

const char *diag_tag_name(enum diag_tag t);

/* A position in the script; len is the width to underline. */
struct loc {
	int line, col;		/* 1-based */
	int off, len;		/* byte offset and width in the source */
};

struct diag {
	const char *file;	/* name shown in messages */
	const char *src;	/* whole script text */
	size_t srclen;
	int nerrors;
	int max_errors;		/* stop after this many (sema) */
	FILE *out;
	jmp_buf *fatal;		/* parser errors longjmp here */
};

void diag_error(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_verror(struct diag *d, struct loc loc, enum diag_tag tag,
		 const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
void diag_note(struct diag *d, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warn(struct diag *d, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* diag_error, then longjmp to d->fatal. */
_Noreturn void diag_fatal(struct diag *d, struct loc loc, enum diag_tag tag,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Print the source line of LOC with a caret under it. */
void diag_show(struct diag *d, struct loc loc);

#endif
