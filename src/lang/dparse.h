/* dparse.h - the D front end (dparse.c, dlower.c, dprobe.c). */
#ifndef SONDE_DPARSE_H
#define SONDE_DPARSE_H

#include "base/compiler.h"
#include "lang/ast.h"
#include "lang/pp.h"

/* Parse a D program, preprocessed as O says, into the AST; NULL after
 * reporting a syntax error. */
struct program *d_parse_program(const char *src, size_t len, struct arena *a,
				struct diag *d, const struct pp_opts *o);

/* Lower D's names in PROG onto sonde's (docs/internals.md, "DTrace's D
 * language"): globals, associative arrays and thread-locals become
 * maps, clause-locals variables, D's builtins and subroutines sonde's;
 * 0, or -1 after reporting errors. */
int d_lower(struct compiler *c, struct program *prog);

#endif
