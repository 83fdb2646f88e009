/* lex.h - the bpftrace-language lexer. */
#ifndef SONDE_LEX_H
#define SONDE_LEX_H

#include <stdint.h>
#include <stddef.h>
#include "base/diag.h"
#include "base/util.h"

enum tok {
#define X(name, spelling) name,
#include "lang/token.def"
#undef X
	T_NTOKENS
};

const char *tok_spelling(enum tok t);

/* The longest name (identifier, $variable, @map, with its sigil), in
 * bytes; longer ones are E_LIMIT errors.  No real name comes close,
 * and messages that quote a name stay readable. */
#define LEX_MAX_NAME 255

struct token {
	enum tok kind;
	struct loc loc;
	const char *text;	/* identifier/var/map name; string bytes */
	size_t len;		/* length of text (strings may hold NULs) */
	uint64_t ival;		/* T_INT, T_POSITIONAL */
	int nl_before;		/* a newline precedes this token */
};

struct lexer {
	const char *src, *end, *p;
	int line;
	const char *line_start;
	struct arena *arena;
	struct diag *diag;
};

void lex_init(struct lexer *lx, const char *src, size_t len,
	      struct arena *a, struct diag *d);
/* The next ordinary token. */
void lex_next(struct lexer *lx, struct token *t);
/* At the top level the parser asks for a probe specification, which
 * follows its own rules (paths, wildcards, colons): "kprobe:vfs_*",
 * "uprobe:/bin/bash:readline", "BEGIN".  Returns T_PROBE, or the
 * ordinary token found instead (EOF, '#' lines are skipped). */
void lex_probe(struct lexer *lx, struct token *t);
/* Skip blanks and comments; returns the next character or -1. */
int lex_peekc(struct lexer *lx);
/* Skip the rest of the current line (preprocessor lines). */
void lex_skip_line(struct lexer *lx, struct token *t);

#endif
