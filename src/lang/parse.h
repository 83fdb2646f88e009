/* parse.h - recursive-descent parser producing the AST. */
#ifndef SONDE_PARSE_H
#define SONDE_PARSE_H

#include "lang/ast.h"
#include "lang/lex.h"
#include "lang/pp.h"

#define PARSE_MAX_DEPTH 200
/* The largest script, in bytes (docs/language.md, "Limits"): keeps
 * every offset and column an int, and a compile under a second and
 * a hundred megabytes whatever the script holds. */
#define SCRIPT_MAX_SIZE (1 << 20)

/* Parse the whole script, preprocessed as O says (NULL: no include
 * directories, nothing predefined).  On a syntax error prints it and
 * returns NULL (the parser stops at the first error); so too for a
 * script of more than SCRIPT_MAX_SIZE bytes (main.c reads one byte
 * more). */
struct program *parse_program(const char *src, size_t len, struct arena *a,
			      struct diag *d, const struct pp_opts *o);

/* Expand the program's macros (lang/macro.c) in its probes: after it,
 * no call names a macro.  0, or -1 after reporting the errors. */
int macro_expand(struct program *prog, struct arena *a, struct diag *d);

#endif
