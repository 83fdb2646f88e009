/* sema.h - what sema leaves on the AST for cg. */
#ifndef SONDE_SEMA_H
#define SONDE_SEMA_H

#include "base/compiler.h"
#include "probe/probe.h"

enum builtin {
#define X(e, name, ty) e,
#include "sema/builtins.def"
#undef X
	B_NBUILTINS,
	B_ARG = B_NBUILTINS,	/* arg0..argN: node ival is N */
	B_ARGS_FIELD,		/* args.NAME / args->NAME (an N_FIELD) */
	B_CTX,			/* ctx of iter probes */
	B_BTF_FIELD,		/* p->member of a kernel struct (N_FIELD) */
	B_SARG,			/* sarg0..sargN: node ival is N */
	B_ARGS,			/* args alone in a uprobe: a struct value
				 * of the function's parameters */
};

enum func {
#define X(e, name, lo, hi, fn) e,
#include "sema/funcs.def"
#undef X
	F_NFUNCS
};

/* A scratch variable ($x): scoped to its probe block (0.17), or to the
 * block that declares it (0.26; sema_scope.c). */
struct var {
	const char *name;
	struct type *ty;	/* TY_VOID: `let $x;` not yet assigned */
	struct loc first;
	bool defined;		/* assigned earlier in the current pass */
	bool live;		/* 0.26: declared, and its block not left, at
				 * this point of the pass */
	bool typed;		/* let $x: TYPE: the type is fixed */
	bool unset;		/* declared by `let $x;`, not assigned since
				 * (this pass) */
	bool in_init;		/* its let's value is being checked */
	struct node *decl;	/* the N_VAR that declared it (a let, a for,
				 * or its first assignment) */
	struct node *scope;	/* 0.26: the block it belongs to */
	struct var *same;	/* the older variable of the same name */
	int slot;		/* cg: offset of its storage */
	bool in_scratch;	/* cg: slot is in scratch, not on the stack */
	int piece;		/* cg: the one piece of a long body using it
				 * (cg.c), or -1 */
	struct var *next;
};

/* The most times one for loop over a range runs (docs/language.md,
 * "for"): the verifier walks that many iterations when the range's end
 * is known only at run time. */
#define FOR_MAX_ITER 1024

/* The op of a delete() call whose value the script drops: a failure
 * then warns at run time, as in bpftrace 0.26. */
#define DELETE_UNUSED 1

/* Per N_PROBE node (node->extra). */
struct probe_info {
	struct probe_spec *specs;
	int nspecs;
	struct var *vars;	/* newest first */
	struct strmap var_names;	/* name -> struct var in vars */
	int name_max;		/* longest probe name + 1 */
	bool per_site;		/* uses typed args or uaddr: one program
				 * per site */
	bool per_name;		/* uses probe, func, probefunc...: one
				 * program per site, or a table of names */
	bool kstack;		/* reads the kernel's stack */
	const char **missing;	/* all its attach points wildcards that
				 * matched nothing: why, per point */
};

const char *builtin_name(int b);
const char *func_name(int f);

/* Check the parsed script of C: expand its probes, type every node,
 * find its maps and events and lay them out.  0, or -1 after errors. */
int sema_check(struct compiler *c);
/* The index of the kernel stack map for DEPTH frames, made if needed
 * (cg asks it again by depth). */
int sema_stack_map(struct compiler *c, int depth);

#endif
