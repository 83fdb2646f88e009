/* parse.h - recursive-descent parser producing the AST. */
#ifndef SONDE_PARSE_H
#define SONDE_PARSE_H

#include "ast.h"
#include "lex.h"

#define PARSE_MAX_DEPTH 200

/* Parse the whole script.  On a syntax error prints it and returns
 * NULL (the parser stops at the first error). */
struct program *parse_program(const char *src, size_t len, struct arena *a,
			      struct diag *d);

#endif
