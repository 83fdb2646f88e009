/* dlower_int.h - what lang/dlower.c (D's names onto sonde's tree)
 * shares with lang/dprobeargs.c (what a D probe gives: args[], argN,
 * uregs[], probeprov, when it fires). */
#ifndef SONDE_DLOWER_INT_H
#define SONDE_DLOWER_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "lang/dparse.h"

/* The lowering of one program, clause by clause. */
struct lower {
	struct compiler *c;
	struct program *prog;
	struct node *probe;	/* the clause */
	const char *prov;	/* its first description's provider */
	const char *pname;	/* ... and probe name */
	bool ret;		/* ... names a return probe */
	struct strmap locals;	/* enumerators the program declares */
	struct strmap scalars;	/* globals assigned without keys */
	bool in_error;		/* lowering an ERROR clause's copy */
};

/* A new node of KIND at LOC; one of a name (a string's too). */
struct node *dl_mk(struct lower *lw, enum node_kind k, struct loc loc);
struct node *dl_word(struct lower *lw, enum node_kind k, const char *name,
		     struct loc loc);
/* N lowered (D's names to sonde's): the node that replaces it. */
struct node *dl_lower(struct lower *lw, struct node *n);

/* dprobeargs.c */
/* argN of a syscall probe, into N. */
void dl_syscall_arg(struct lower *lw, struct node *n, int i);
/* arg0, arg1 of a profile probe, into N. */
void dl_profile_arg(struct lower *lw, struct node *n, int i);
/* Are clause P's probes all in a process's files (pid, USDT)? */
bool dl_user_clause(const struct node *p);
/* N, probeprov of such a clause, as strjoin(probeprov, lltostr(pid)). */
void dl_provider_pid(struct lower *lw, struct node *n);
/* args[K] (N) of a proc, sched, io or syscall probe: its value's
 * node; N when it is none of theirs. */
struct node *dl_proc_args(struct lower *lw, struct node *n);
/* uregs[R_x] (N): the register's node (reported: not a constant). */
struct node *dl_uregs(struct lower *lw, struct node *n);
/* Clause P's predicate gets its probes' condition first (an exec that
 * failed, a process's last thread), when they share one. */
void dl_probe_condition(struct lower *lw, struct node *p);

#endif
