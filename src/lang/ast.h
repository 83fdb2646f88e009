/* ast.h - the syntax tree.  One node type for every kind keeps the
 * walkers short; which fields a kind uses is noted beside each field. */
#ifndef SONDE_AST_H
#define SONDE_AST_H

#include <stdint.h>
#include <stdio.h>
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
	uint64_t ival;		/* INT value; POSITIONAL number; UNROLL count */
	const char *name;	/* VAR/MAP/BUILTIN/CALL/FIELD name; ATTACH spec;
				 * STR bytes */
	size_t len;		/* STR length (without terminator) */
	struct node *a, *b, *c;	/* operands; IF: cond, then, else;
				 * WHILE: cond, body; CAST: operand;
				 * ASSIGN: target, value; PROBE: pred, body */
	struct node **args;	/* CALL arguments; MAP keys; TUPLE elements;
				 * BLOCK statements; PROBE attach points */
	int nargs;
	struct node *next;	/* next probe in the program */
	const char *tyname;	/* CAST, SIZEOF: the type name written */
	int tyname_ptr;		/* CAST: number of '*' */

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

struct program {
	struct node *probes;	/* N_PROBE list, source order */
	int nprobes;
	struct node *types;	/* N_STRUCTDEF / N_ENUMDEF list: struct,
				 * union and enum definitions of the script;
				 * N_MEMBER: tyname, tyname_ptr, ival = array
				 * length (0: none; a = the constant naming it),
				 * cval = bit width (0: none); of an enum: a = the
				 * value written (NULL: one more), cval = the
				 * value (cdecl.c) */
};

const char *node_kind_name(enum node_kind k);
void ast_dump(FILE *f, const struct program *p);

#endif
