/* lex_int.h - what the lexer (lex.c) and the preprocessor (pp.c for
 * directives and files, pp_macro.c for macros and #if expressions)
 * share: they call each other, the lexer running directives as it
 * skips blanks and the preprocessor reading tokens through it. */
#ifndef SONDE_LEX_INT_H
#define SONDE_LEX_INT_H

#include "lang/lex.h"
#include "lang/pp.h"

/* A macro.  Its body is lexed when it is defined; a body the lexer
 * cannot read ('#', a character literal) is an error only where the
 * macro is used, as in C an unused macro costs nothing. */
struct pp_macro {
	const char *name;
	int nparams;		/* -1: object-like */
	const char **params;
	struct token *body;
	int nbody;
	struct loc loc;		/* its name in the #define */
	const char *bad;	/* why the body cannot be used, or NULL */
	struct loc bad_loc;
	enum diag_tag bad_tag;
};

/* The macros a token came from, innermost first (C's rule: a macro is
 * not expanded again inside its own expansion). */
struct pp_hide {
	const struct pp_macro *m;
	const struct pp_hide *next;
	int depth;		/* length of the list */
};

/* An #if, #ifdef or #ifndef whose #endif is still to come. */
struct pp_cond {
	struct loc loc;		/* the directive */
	int buf;		/* the include depth it was opened at */
	bool taken;		/* one of its groups was read */
	bool in_else;		/* after its #else */
	const char *name;	/* its last directive's: "if", "elif", ... */
};

/* A file read for #include: its text and its diagnostics index. */
struct pp_file {
	char *text;
	size_t len;
	int file;
	const char *dir;
	bool once;		/* #pragma once */
	bool read;		/* included at least once */
};

/* A buffer the lexer will come back to: an including file. */
struct pp_buf {
	const char *src, *end, *p, *line_start, *dir;
	int line, file;
	bool bol;
};

struct pp {
	const struct pp_opts *o;
	struct strmap macros;	/* name -> struct pp_macro, NULL: #undef */
	struct pp_cond *conds;
	int nconds, capconds;
	struct pp_buf *bufs;	/* the includers of the current buffer */
	int nbufs, capbufs;
	const char *dir;	/* the current buffer's directory */
	struct strmap files;	/* path -> struct pp_file, read once */
	struct pp_file **byfile;	/* by diag file index */
	size_t included;	/* bytes of included text */
	size_t kernel;		/* bytes of kernel headers scanned */
	/* Tokens of expansions, still to be read: the next one last. */
	struct token *queue;
	int nqueue, capqueue;
	int isolated;		/* expanding an argument: the queue is all */
	long made;		/* tokens expansions made */
	int depth;		/* arguments being expanded, #if parentheses */
	bool scan;		/* reading a kernel header for its constants */
	struct pp_scanned {	/* the macros it defined, and what they */
		struct pp_macro *m, *prev;	/* replaced */
	} *scanned;
	int nscanned, capscanned;
};

/* lex.c */
struct loc lex_here(struct lexer *lx, const char *at, int len);
_Noreturn void lex_fail(struct lexer *lx, struct loc loc, enum diag_tag tag,
			const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* At a '\n' (lx->p points at it): count the line. */
void lex_newline(struct lexer *lx);
/* At a slash-star: skip the comment. */
void lex_comment(struct lexer *lx);
/* The next token of the buffer, no macro expanded; in a directive,
 * T_EOF at the end of its line. */
void lex_scan(struct lexer *lx, struct token *t);

/* pp.c */
/* At a '#' that starts a line: read the directive, its whole line. */
void pp_directive(struct lexer *lx);
/* At the end of a buffer: back to the file that included it (true),
 * or at the end of the script (false; an #if left open is an error). */
bool pp_pop(struct lexer *lx);
/* Read the buffer TEXT (file FILE of the diagnostics, in DIR) now; the
 * lexer comes back to the current one at its end. */
void pp_push(struct lexer *lx, const char *text, size_t len, int file,
	     const char *dir);
/* One more file for the diagnostics, first read at FROM; its index. */
int pp_add_file(struct lexer *lx, const char *name, const char *text,
		size_t len, struct loc from);
/* The regular file at PATH, read (once) and registered with the
 * diagnostics; NULL if there is none.  AT: where it is asked for. */
struct pp_file *pp_open_file(struct lexer *lx, const char *path,
			     struct loc at);
/* NAME relative to DIR (NAME itself when absolute). */
const char *pp_join(struct lexer *lx, const char *dir, const char *name);

/* pp_macro.c */
/* #define and #undef, the directive's name read. */
void pp_define(struct lexer *lx, struct loc at);
void pp_undef(struct lexer *lx, struct loc at);
/* Define NAME as one integer (kernel headers, predefined macros). */
void pp_define_int(struct lexer *lx, const char *name, int64_t v,
		   struct loc at);
struct pp_macro *pp_macro(struct lexer *lx, const char *name);
/* The rest of an #if or #elif line, evaluated: 0 or 1. */
bool pp_if(struct lexer *lx, struct loc at);
/* The value of an integer #define of a kernel header, by NAME, with
 * TEXT the definitions to come; false if it is no integer. */
bool pp_eval_tokens(struct lexer *lx, const struct token *v, int n,
		    int64_t *out);
/* The next pending token of an expansion, taken or only seen. */
bool pp_take(struct lexer *lx, struct token *t);
const struct token *pp_peek(struct lexer *lx);
/* T is an identifier: if it names a macro, queue its expansion. */
bool pp_expand(struct lexer *lx, struct token *t);

#endif
