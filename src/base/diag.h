/* diag.h - compile diagnostics with file:line:col, caret and stable tag. */
#ifndef SONDE_DIAG_H
#define SONDE_DIAG_H

#include <stdbool.h>
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
/* DTrace's tag for T (D_SYNTAX, D_PROTO_LEN, ...). */
const char *diag_d_tag(enum diag_tag t);

/* A position in the script or a file it includes; len is the width to
 * underline.  FILE comes last so that { line, col, off, len } still
 * initialises a position in the script. */
struct loc {
	int line, col;		/* 1-based */
	int off, len;		/* byte offset and width in the source */
	int file;		/* 0: the script; else an index in diag.files */
	/* A node a macro expansion made (lang/macro.c) is at the call;
	 * this says where in the macro it comes from, for a note: 0, or
	 * 1 + its index in diag.exps (an int: every node has a loc). */
	int exp;
};

/* The part of a macro's body an expanded node was copied from. */
struct diag_exp {
	struct loc at;		/* in the macro's body */
	const char *macro;
	int up;			/* the expansion the call was in (as loc.exp) */
};

/* A source file diagnostics can show: the script, an included file. */
struct diag_file {
	const char *name;	/* as messages show it */
	const char *src;	/* its whole text */
	size_t len;
	struct loc from;	/* its first #include (line 0: --include) */
};

struct diag {
	const char *file;	/* name shown in messages */
	const char *src;	/* whole script text */
	size_t srclen;
	/* The files the script includes (the preprocessor adds them, in
	 * the compile's arena): files[i] is file i for i >= 1; files[0]
	 * is unused, file 0 being the script above. */
	struct diag_file *files;
	int nfiles;
	int nerrors;
	int max_errors;		/* stop after this many (sema) */
	bool no_warnings;	/* --no-warnings: diag_warn says nothing */
	FILE *out;
	jmp_buf *fatal;		/* parser errors longjmp here */
	/* D (sonde dtrace): DTrace's tags in the tag slot; with errtags
	 * (-x errtags) DTrace's own one-line form, "dtrace: failed to
	 * compile script FILE: [D_TAG] line N: message", dwhat the
	 * "script" or "description" it names */
	bool d, errtags;
	const char *dwhat;
	int dline;		/* D: the line DTrace names for an error in
				 * a predicate (its clause's '{'), 0: the
				 * error's own */
	/* Macro expansions (lang/macro.c adds them, in the compile's
	 * arena): loc.exp N is exps[N - 1]. */
	const struct diag_exp **exps;
	int nexps;
};

void diag_error(struct diag *d, struct loc loc, enum diag_tag tag,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void diag_verror(struct diag *d, struct loc loc, enum diag_tag tag,
		 const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
/* An error whose DTrace tag is DTAG (D_LLQUANT_FACTORVAL, ...): a
 * check of D's own that names a finer tag than TAG's class (the tag
 * bpftrace scripts, and sonde's E_ slot, still see). */
void diag_error_d(struct diag *d, struct loc loc, enum diag_tag tag,
		  const char *dtag, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void diag_note(struct diag *d, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warn(struct diag *d, struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* diag_error, then longjmp to d->fatal. */
_Noreturn void diag_fatal(struct diag *d, struct loc loc, enum diag_tag tag,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* diag_error_d, then longjmp to d->fatal. */
_Noreturn void diag_fatal_d(struct diag *d, struct loc loc, enum diag_tag tag,
			    const char *dtag, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* File FILE of a location: the script for 0 or an unknown index. */
struct diag_file diag_source(const struct diag *d, int file);
/* Expansion EXP of a location (its loc.exp, not 0). */
const struct diag_exp *diag_exp_of(const struct diag *d, int exp);
/* Print the source line of LOC with a caret under it. */
void diag_show(struct diag *d, struct loc loc);

#endif
