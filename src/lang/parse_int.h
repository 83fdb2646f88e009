/* parse_int.h - what the parser's files share: parse.c (probes,
 * statements, expressions) and decl.c (C declarations: struct, union,
 * enum, typedef, and the type names of casts and sizeof).  Private to
 * lang/. */
#ifndef SONDE_PARSE_INT_H
#define SONDE_PARSE_INT_H

#include <stdio.h>
#include <string.h>
#include "lang/parse.h"

struct parser {
	struct lexer lx;
	struct token tok;	/* current token, valid when have_tok */
	int have_tok;
	struct arena *arena;
	struct diag *diag;
	int depth;		/* nesting, see enter() */
	int tree;		/* depth of the syntax tree, see chain() */
	struct loc prev_end;	/* just after the last token taken */
	int in_pred;		/* parenthesis level 0 of a predicate */
	int loop_depth;
	struct strmap typedefs;	/* names the script's typedefs define */
	struct strmap enumerators;	/* for constants in declarations */
	int derror;		/* D: clauses of the ERROR probe */
	bool zdefs;		/* D, -Z: descriptions may match nothing */
	bool d;			/* reading D (dparse.c): NAME[K, ...] is an
				 * associative array, a map named NAME */
	/* D: the clause being read, and the clause-locals assigned so
	 * far (name -> that clause): this->p[i] indexes a pointer one
	 * holds, and is no associative array */
	struct node *dclause;
	struct strmap dthis;
};

static inline struct token *peek(struct parser *p)
{
	if (!p->have_tok) {
		lex_next(&p->lx, &p->tok);
		p->have_tok = 1;
	}
	return &p->tok;
}

static inline struct token take(struct parser *p)
{
	struct token t = *peek(p);

	p->have_tok = 0;
	p->prev_end = t.loc;
	p->prev_end.off += t.loc.len;
	p->prev_end.col += t.loc.len;
	p->prev_end.len = 1;
	return t;
}

static inline int accept(struct parser *p, enum tok k)
{
	if (peek(p)->kind == k) {
		take(p);
		return 1;
	}
	return 0;
}

/* "WHAT, found 'TOKEN'" at LOC; WHAT says what was expected, as in
 * "expression expected". */
static inline _Noreturn void unexpected_at(struct parser *p, struct loc loc,
				    const char *what)
{
	struct token *t = peek(p);

	/* D's own words, as dtrace says them */
	if (p->d && t->kind == T_EOF)
		diag_fatal(p->diag, loc, E_SYNTAX, "syntax error near end of input");
	if (p->d)
		diag_fatal(p->diag, loc, E_SYNTAX, "syntax error near \"%.*s\"",
			   t->loc.len > 40 ? 40 : t->loc.len,
			   diag_source(p->diag, t->loc.file).src + t->loc.off);
	if (t->kind == T_EOF)
		diag_fatal(p->diag, loc, E_SYNTAX, "%s, found end of file",
			   what);
	diag_fatal(p->diag, loc, E_SYNTAX, "%s, found '%.*s'", what,
		   t->loc.len > 40 ? 40 : t->loc.len,
		   diag_source(p->diag, t->loc.file).src + t->loc.off);
}

static inline _Noreturn void unexpected(struct parser *p, const char *what)
{
	unexpected_at(p, peek(p)->loc, what);
}

static inline struct token expect(struct parser *p, enum tok k, const char *what)
{
	if (peek(p)->kind != k)
		unexpected(p, what);
	return take(p);
}

/* "'}' expected to close '{' at 3:12" */
static inline void expect_close(struct parser *p, enum tok k, struct loc open)
{
	if (peek(p)->kind != k) {
		const char *o = k == T_RBRACE ? "{" : k == T_RPAREN ? "(" : "[";
		char what[96];

		snprintf(what, sizeof(what), "'%s' expected to close '%s' at %d:%d",
			 tok_spelling(k), o, open.line, open.col);
		unexpected_at(p, peek(p)->loc, what);
	}
	take(p);
}

static inline struct node *mk(struct parser *p, enum node_kind k, struct loc loc)
{
	struct node *n = arena_alloc(p->arena, sizeof(*n));

	n->kind = k;
	n->loc = loc;
	return n;
}

/* Span from A's start to B's end, for carets under whole expressions. */
static inline struct loc span(struct loc a, struct loc b)
{
	if (b.off + b.len > a.off && b.line == a.line)
		a.len = b.off + b.len - a.off;
	return a;
}

/* Two limits keep every phase's recursion (parser, sema, cg) off the
 * end of the C stack.  enter() counts nesting, which the parser itself
 * recurses on: a block, an expression (so each parenthesis, call
 * argument list, map key), a prefix operator or cast, an "else if".
 * chain() counts what only makes the tree deeper, without parser
 * recursion: each operator of a chain (1+2+3 is ((1+2)+3)) and each
 * postfix operator.  Both add to the tree's depth, capped at
 * PARSE_MAX_TREE so that a generated "pid == 1 || pid == 2 || ..."
 * of a few thousand terms still compiles. */
#define PARSE_MAX_TREE 4000

static inline void enter(struct parser *p)
{
	p->tree++;
	if (++p->depth > PARSE_MAX_DEPTH)
		diag_fatal(p->diag, peek(p)->loc, E_LIMIT,
			   "expression or block nested deeper than %d levels",
			   PARSE_MAX_DEPTH);
}

static inline void leave(struct parser *p)
{
	p->depth--;
	p->tree--;
}

static inline void chain(struct parser *p, struct token *op)
{
	if (++p->tree > PARSE_MAX_TREE)
		diag_fatal(p->diag, op->loc, E_LIMIT,
			   "expression deeper than %d operators; split it with variables",
			   PARSE_MAX_TREE);
}

/* Growable argument lists live in the arena: build in a temp array. */
struct list {
	struct node **v;
	int n, cap;
};

static inline void list_add(struct parser *p, struct list *l, struct node *n)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 4;
		struct node **v = arena_alloc(p->arena, sizeof(*v) * (size_t)cap);

		if (l->n)
			memcpy(v, l->v, sizeof(*v) * (size_t)l->n);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = n;
}

/* decl.c */
/* Does a top-level item starting with WORD declare a type (struct,
 * union, enum, typedef)? */
bool parse_decl_start(const char *word);
/* The declaration that starts with KW (a T_PROBE token of the word):
 * an N_STRUCTDEF, N_ENUMDEF or N_TYPEDEF node. */
struct node *parse_decl(struct parser *p, struct token kw);
/* Does T start a type name (of a cast, sizeof, a member)? */
bool parse_is_type(struct parser *p, const struct token *t);
/* A type name into N: its spelling in N->tyname ("unsigned int",
 * "struct foo", a typedef's name), then the '*'s in N->tyname_ptr. */
void parse_type_name(struct parser *p, struct node *n);
/* D's variable declarations: the specifiers into N (tyname, and in
 * N->a a struct, union or enum defined there), then one declarator into
 * M (its '*'s, name, dimensions; M->ival DV_ASSOC for a[string]). */
void parse_specifiers(struct parser *p, struct node *n);
void parse_declarator(struct parser *p, struct node *m);
/* A parameter list, "(int, char *)" at its '(': skipped (a function
 * pointer's; a D prototype's, where a storage class is
 * D_DECL_PARMCLASS) */
void parse_skip_params(struct parser *p);

/* parse.c, for dparse.c: an expression; a '{' statements '}' block
 * (AFTER names its owner for the message when '{' is missing). */
struct node *parse_expr(struct parser *p);
/* A map's '[' K, ... ']' (at the '[') into N's args; N's place spans
 * them.  A '/' inside is a division, even in a predicate. */
void parse_map_keys(struct parser *p, struct node *n);
/* dparse.c: D's '[' after *N (at the '['): an array a[k, ...], a
 * thread-local array self->a[k] (the map "self->a", marked for
 * lang/dlower.c to key by tid first), or an error (@a[i][j],
 * this->a[k]); false for other operands, whose '[' indexes */
bool d_index(struct parser *p, struct node **n);
/* D: LHS is assigned (this->x: noted for d_index()). */
void d_assigned(struct parser *p, const struct node *lhs);
/* D's (C's) a = b = c, FIRST (a = b) read: the assignments right to
 * left, as a block of statements. */
struct node *d_assign_chain(struct parser *p, struct node *first);
/* D's assignment as a value, its LHS read at the operator: (x = e) is
 * the block expression { x = e; x }. */
struct node *d_assign_value(struct parser *p, struct node *lhs);
/* parse.c: is K =, +=, ... ? */
int parse_is_assign_op(enum tok k);
struct node *parse_block(struct parser *p, const char *after);

/* import.c */
/* import "NAME" at AT: the file, or the .bt and .h files of the
 * directory, read next, each once (docs/language.md, "Imports"). */
void import_path(struct lexer *lx, const char *name, struct loc at);

/* stdlib.c */
/* The standard library's files, queued to be read before the script. */
void stdlib_push(struct lexer *lx);
/* Whether diagnostics file FILE is one of the standard library's. */
bool stdlib_file(const struct diag *d, int file);

#endif
