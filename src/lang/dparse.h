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
/* The process a description's provider names: pid1234, or pid$1 with
 * the macro argument; 0 for none ($target: -p, -c decide). */
long d_named_pid(struct compiler *c, const char *desc);
/* Clause P's user-space attach points given their files (-c's program
 * for PROV$target, that process's for PROV1234) and, with a pid in the
 * provider's name, the predicate that keeps it to that process; sets
 * c->d_program (dtarget.c). */
void d_target_files(struct compiler *c, struct node *p);

/* dspec.c: the places of speculate() and commit() in clause P (D's
 * rules, reported with DTrace's tags), and speculate(E) made
 * `$__spec = E; speculate($__spec)`; before d_lower() names things. */
void d_spec_clause(struct compiler *c, struct node *p);
/* Where in block B a clause's firing line goes: after its speculate()
 * (so that it is speculative too), else first. */
int d_spec_at(const struct node *b);

/* dxlate.c: D's translators.  The definitions' checks (DTrace's
 * D_XLATE_ tags); and FIELD, a member of `xlate <T> (e)`, as the
 * expression its translator gives (not lowered yet), or FIELD itself
 * after an error, or NULL when FIELD is not a translation's. */
void d_xlate_check(struct compiler *c, struct program *prog);
struct node *d_xlate_field(struct compiler *c, struct program *prog,
			   struct node *field);
/* `v = xlate <T> (e)` as one assignment per member of T (0 for those
 * the translator leaves out), not lowered yet; NULL when N is not. */
struct node *d_xlate_assign(struct compiler *c, struct program *prog,
			    struct node *n);

/* A copy of N with each identifier NAMES[i] (N_BUILTINs) made a copy
 * of VALS[i]: an inline's parameters given (dlower.c). */
struct node *d_subst(struct compiler *c, const struct node *n,
		     struct node *const *names, struct node *const *vals, int k);

#endif
