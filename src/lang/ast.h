/* ast.h - the syntax tree.  One node type for every kind keeps the
 * walkers short; which fields a kind uses is noted beside each field. */
#ifndef SONDE_AST_H
#define SONDE_AST_H

#include <stdint.h>
#include <stdio.h>
#include "base/arena.h"
#include "base/diag.h"

enum node_kind {
#define X(k, d) k,
#include "lang/ast.def"
#undef X
	N_NKINDS
};

struct type;
struct var;
struct mapinfo;

struct node {
	enum node_kind kind;
	struct loc loc;
	int op;			/* BINOP/UNOP/ASSIGN/INCDEC: token kind;
				 * INCDEC: 1 = prefix; FIELD: T_DOT/T_ARROW */
	int prefix;		/* INCDEC */
	uint64_t ival;		/* INT value; POSITIONAL number; UNROLL count;
				 * D: 1 on a CALL of printa() of several
				 * aggregations or of the firing line's
				 * printf(), on a MAP self->a[k] (dlower.c);
				 * LET: N of string[N] or TYPE[N] (0: none);
				 * BLOCK: 1 when its last statement has no
				 * ';' (a block expression's value) */
	const char *name;	/* VAR/MAP/BUILTIN/CALL/FIELD name; ATTACH spec;
				 * STR bytes */
	size_t len;		/* STR length (without terminator) */
	struct node *a, *b, *c;	/* operands; IF: cond, then, else;
				 * ELVIS (a ?: b): a, b;
				 * LET: the N_VAR, and the N_ASSIGN
				 * of its value (or NULL);
				 * WHILE: cond, body; CAST: operand;
				 * FOR: variable, RANGE or map, body;
				 * RANGE: start, end;
				 * ASSIGN: target, value; PROBE: pred, body */
	struct node **args;	/* CALL arguments; MAP keys; TUPLE elements;
				 * BLOCK statements; BLOCKEXPR statements,
				 * then the value; PROBE attach points;
				 * MACRO parameters (VAR, MAP or BUILTIN) */
	int nargs;
	struct node *next;	/* next probe (macro) in the program */
	const char **fnames;	/* TUPLE: a record's field names, in
				 * source order (NULL: a tuple) */
	const char *tyname;	/* CAST, SIZEOF, LET, OFFSETOF: the type
				 * name written (LET: NULL when none);
				 * OFFSETOF: name is the field path
				 * ("a.b.c") */
	int tyname_ptr;		/* CAST, LET: number of '*' */
	int tydim;		/* CAST, SIZEOF: TYPE[N] (0.26's array
				 * types): N, -1 for TYPE[] (0: none) */
	const char *dname;	/* D: a CALL's name as the script wrote
				 * it, when lang/dlower.c renamed it
				 * (trace -> print), for D's messages;
				 * a kernel symbol's `sym (its kaddr()) */
	int dend;		/* D: PROBE: the line of the body's '}' */

	/* filled by sema */
	struct type *ty;
	struct var *var;	/* VAR */
	struct mapinfo *map;	/* MAP, and calls that take a map */
	int builtin;		/* BUILTIN / CALL: index in builtins table */
	int64_t cval;		/* constant-folded value (is_const) */
	int foff, fshift, fbits;	/* FIELD of a kernel struct: byte
					 * offset, bitfield shift and width */
	int is_const;
	void *extra;		/* phase-private data (printf spec, ...) */
};

/* One "name = value" of the config block (docs/language.md, "Config
 * block"); the compile applies it (src/config.c). */
struct config_item {
	struct config_item *next;
	const char *name;
	struct loc loc;		/* the name */
	struct loc vloc;	/* the value */
	int kind;		/* T_INT, T_IDENT (a bare word) or T_STRING */
	const char *text;	/* T_IDENT, T_STRING */
	uint64_t ival;		/* T_INT */
};

/* let @name = KIND(SIZE); at the top level (docs/language.md, "Map
 * declarations"): checked and applied by sema (sema_decl.c). */
struct map_decl {
	struct map_decl *next;
	const char *name;	/* "@a" */
	struct loc loc;		/* the map */
	const char *kind;	/* "hash", "lruhash", ... as written */
	struct loc kloc;	/* the kind */
	int nargs;		/* arguments given */
	uint64_t size;		/* the first, when an integer */
	bool size_ok;		/* it was an integer literal */
	struct loc sloc;	/* the first argument, or the call */
};

struct lex_pragma;

/* What a D declaration declares (program.dvars' ival). */
#define DV_INT 1	/* an integer: what it gets is cast to its type */
#define DV_ASSOC 2	/* an associative array, int a[string] */
#define DV_INTVAL 4	/* an associative array of integers: what an
			 * element gets is cast to their type */

struct program {
	bool d;			/* D's (lang/dparse.c) */
	struct lex_pragma *dpragmas;	/* D: #pragma D ..., source order */
	struct node *dinlines;	/* D: inline constants, N_ASSIGN: name, b */
	struct node *dxlators;	/* D: translators, source order, N_BLOCK:
				 * tyname, tyname_ptr the output type; a an
				 * N_CAST of the input type, name its
				 * identifier; args N_ASSIGN: name a
				 * member, b its expression */
	struct node *dvars;	/* D: declared variables, N_MEMBER nodes as
				 * lang/decl.c reads members: name (with
				 * "self->" or "$this->"), tyname,
				 * tyname_ptr, args = dimensions, a = a
				 * definition written there; ival: DV_ */
	int derror;		/* D: ERROR probes matched (none attached) */
	struct node *derrors;	/* D: the ERROR clauses, N_PROBE without
				 * attach points: lang/dlower.c copies them
				 * into each clause's fault path */
	struct config_item *config;	/* the config block, source order */
	bool has_config;
	struct map_decl *mapdecls;	/* source order */
	struct node *probes;	/* N_PROBE list, source order */
	int nprobes;
	/* N_MACRO list, source order (lang/macro.c): name, args =
	 * parameters, b = the body (an N_BLOCK), prefix = 1 for the
	 * standard library's; expanded away before sema */
	struct node *macros;
	struct node *types;	/* N_STRUCTDEF / N_ENUMDEF / N_TYPEDEF list
				 * (lang/decl.c): N_MEMBER: tyname,
				 * tyname_ptr, args = array dimensions
				 * (N_INT), cval = bit width (0: none) or
				 * enumerator value, a = a definition
				 * written in place; a nameless N_MEMBER is
				 * an anonymous struct or union; an
				 * N_TYPEDEF is one like an N_MEMBER */
};

const char *node_kind_name(enum node_kind k);
void ast_dump(FILE *f, const struct program *p);
/* D: the declaration of variable NAME (P->dvars), or NULL. */
struct node *ast_dvar(const struct program *p, const char *name);
/* A deep copy of N in A, its locations kept; *MADE counts the nodes. */
struct node *ast_clone(struct arena *a, const struct node *n, long *made);

#endif
