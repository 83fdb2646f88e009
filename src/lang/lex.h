/* lex.h - the bpftrace-language lexer. */
#ifndef SONDE_LEX_H
#define SONDE_LEX_H

#include <setjmp.h>
#include <stdbool.h>
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
/* A binary operator's precedence, C's (1: ||, up to 10: * / %), or 0
 * for a token that is none: the parser, #if and C constant
 * expressions share it. */
int tok_binop_level(enum tok t);

/* The longest name (identifier, $variable, @map, with its sigil), in
 * bytes; longer ones are E_LIMIT errors.  No real name comes close,
 * and messages that quote a name stay readable. */
#define LEX_MAX_NAME 255

struct pp_hide;

struct token {
	enum tok kind;
	struct loc loc;		/* a macro's tokens: where it is used */
	const char *text;	/* identifier/var/map name; string bytes */
	size_t len;		/* length of text (strings may hold NULs) */
	uint64_t ival;		/* T_INT, T_POSITIONAL */
	int nl_before;		/* a newline precedes this token */
	const struct pp_hide *hide;	/* the macros this token came from,
					 * which it may not expand again */
};

struct pp;

/* The lexer reads one buffer at a time: the script, or a file it
 * includes (the preprocessor keeps the ones it will come back to). */
/* A "#pragma D ..." line (the text after "D", trimmed), for D's front
 * end (dparse.c); bpftrace scripts' are ignored. */
struct lex_pragma {
	struct lex_pragma *next;
	const char *text;
	struct loc loc;
};

struct lexer {
	const char *src, *end, *p;
	int line;
	const char *line_start;
	int file;		/* the buffer's diag file index (0: script) */
	bool bol;		/* only blanks since the line's start: a '#'
				 * here starts a directive */
	bool dline;		/* reading a directive: its line ends it */
	struct arena *arena;
	struct diag *diag;
	struct pp *pp;		/* the preprocessor (pp.h), or NULL */
	/* When set, an error longjmps here instead of being reported,
	 * and soft_* say what it was (the preprocessor tries to read a
	 * macro body or a kernel header this way). */
	jmp_buf *soft;
	struct loc soft_loc;
	enum diag_tag soft_tag;
	const char *soft_msg;
	struct lex_pragma *pragmas, **pragma_tail;	/* source order */
	bool d;			/* D: a probe description may start with
				 * ':' or '*' */
};

void lex_init(struct lexer *lx, const char *src, size_t len,
	      struct arena *a, struct diag *d);
/* The next ordinary token, macros expanded. */
void lex_next(struct lexer *lx, struct token *t);
/* At the top level the parser asks for a probe specification, which
 * follows its own rules (paths, wildcards, colons): "kprobe:vfs_*",
 * "uprobe:/bin/bash:readline", "BEGIN".  Returns T_PROBE, or the
 * ordinary token found instead (EOF, a macro's pending token). */
void lex_probe(struct lexer *lx, struct token *t);
/* Whether the next token is a ';', without reading it as a token (a
 * probe specification may follow, which lex_probe reads). */
bool lex_peek_semi(struct lexer *lx);
/* The next character past blanks and comments, without reading a
 * token (0 at the end): D's clause ends where the next may start. */
char lex_peek_char(struct lexer *lx);

#endif
