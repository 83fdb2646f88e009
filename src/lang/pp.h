/* pp.h - the C preprocessor of the bpftrace front end: what a compile
 * tells it (include directories, --include files, kernel headers, the
 * kernel constants).  The lexer runs it (lex_int.h). */
#ifndef SONDE_PP_H
#define SONDE_PP_H

#include <stdbool.h>
#include <stdint.h>
#include "lang/lex.h"

/* Nesting limits of the preprocessor (E_PREPROC beyond them): included
 * files, macro expansions inside one another (the macros a token came
 * from), macro arguments inside arguments and parentheses of #if. */
#define PP_MAX_INCLUDE 200
#define PP_MAX_NEST 1000
#define PP_MAX_DEPTH 200
/* Size limits: the bytes of all included text (each file is also at
 * most SCRIPT_MAX_SIZE), and the tokens all macro expansions make or
 * copy (bodies, arguments): a script of a megabyte stays a compile of
 * under a second and a hundred megabytes whatever it defines or
 * includes. */
#define PP_MAX_INCLUDED (4 << 20)
#define PP_MAX_MADE (1 << 18)
/* Kernel headers read for their constants: at most this much text. */
#define PP_MAX_KERNEL (16 << 20)

struct pp_opts {
	const char *dir;	/* the script's directory: "..." includes */
	const char *const *incdirs;	/* -I, in order */
	int nincdirs;
	const char *const *includes;	/* --include, read before the script */
	int nincludes;
	/* Directories of installed kernel headers (.../include,
	 * .../include/uapi, .../arch/x86/include, ...): a <linux/...>
	 * they hold is read for its integer #defines. */
	const char *const *kdirs;
	int nkdirs;
	/* #define and #undef lines (D's -D, -U), read before the
	 * --include files and the script */
	const char *defines;
	/* "NAME" or "NAME=VALUE", defined before anything is read. */
	const char *const *predef;
	int npredef;
	/* Set: no file outside this directory is read (the fuzz target),
	 * and system headers are known by their names only. */
	const char *root;
	bool verbose;	/* say on stderr what becomes of system headers */
	bool stdlib;	/* read the standard library first (lang/stdlib.c) */
	bool dzdefs;	/* D (-Z): a description matching nothing is dropped */
	/* The kernel constants sonde knows (catalog/kconst.c), which #if
	 * and defined() see as macros; NULL: none. */
	bool (*constant)(void *arg, const char *name, int64_t *value);
	/* The kernel's enumerators (BTF: TASK_COMM_LEN), which type
	 * definitions see but #if does not; NULL: none. */
	bool (*enumerator)(void *arg, const char *name, int64_t *value);
	void *arg;
};

/* Start the preprocessor on LX (lex_init'ed on the script): predefined
 * macros, then the --include files, which are read first.  O must
 * live as long as LX.  Errors longjmp through LX's diag. */
void pp_start(struct lexer *lx, const struct pp_opts *o);

/* A kernel constant or enumerator NAME (the options' lookups) into
 * *VALUE; false when LX has no preprocessor or the name is neither. */
bool pp_constant(const struct lexer *lx, const char *name, int64_t *value);

/* D: a flag option's word value (#pragma D option quiet=on): 1 for
 * yes, true, enable(d), on or set, 0 for their opposites (any case),
 * -1 for anything else. */
int d_option_bool(const char *value);
/* D: whether a flag option given VALUE (NULL: none, "quiet" alone) is
 * set: no value, a word d_option_bool() says 1 of, or a number not 0. */
bool d_option_on(const char *value);

#endif
