/* sema_int.h - what sema.c (expressions, statements, maps, variables)
 * and sema_call.c (function calls) share; not for other phases. */
#ifndef SONDE_SEMA_INT_H
#define SONDE_SEMA_INT_H

#include "base/compiler.h"
#include "sema/sema.h"
#include "base/types.h"

#define MAX_ERRORS 20

struct sema {
	struct compiler *c;
	int report;		/* last pass: report errors, make events */
	bool guess_int;		/* unknown map values read as int64 */
	struct node *probe;
	struct probe_info *pi;
	struct strmap map_names;	/* "@x" -> struct mapinfo */
	bool scoped;		/* 0.26: variables live in their block */
	struct node *scope;	/* the innermost block being checked */
	struct var **live;	/* the live variables, innermost last */
	int nlive, live_cap;
	int dead;		/* inside an if whose condition is a false
				 * constant (or an else of a true one):
				 * fail() says nothing there */
	struct node *assigning;	/* the assignment sema_unify() merges
				 * for (its warnings), or NULL */
	struct strmap map_decls;	/* "@x" -> its struct map_decl */
};

#define ERR(s, loc, tag, ...)                                          \
	do {                                                           \
		if ((s)->report && (s)->c->diag.nerrors < MAX_ERRORS)  \
			diag_error(&(s)->c->diag, loc, tag, __VA_ARGS__); \
		else if ((s)->report)                                  \
			(s)->c->diag.nerrors++;                        \
	} while (0)

/* ERR with DTrace's own tag DTAG where the script is D's. */
#define DERR(s, loc, tag, dtag, ...)                                   \
	do {                                                           \
		if ((s)->report && (s)->c->diag.nerrors < MAX_ERRORS)  \
			diag_error_d(&(s)->c->diag, loc, tag, dtag,     \
				     __VA_ARGS__);                     \
		else if ((s)->report)                                  \
			(s)->c->diag.nerrors++;                        \
	} while (0)

/* Pointers count as integers (uint64), as in bpftrace. */
static inline bool is_int(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_PTR;
}

static inline bool is_err(const struct type *t)
{
	return t->kind == TY_ERROR;
}

static inline struct type *set(struct node *n, struct type *t)
{
	n->ty = t;
	return t;
}

static inline struct type *str_type(struct sema *s, int size)
{
	return ty_str(&s->c->arena, size);
}

/* sema_decl.c: top-level map declarations */
void sema_decl_read(struct sema *s);
void sema_decl_apply(struct sema *s, struct mapinfo *m);
void sema_decl_check(struct sema *s);
void sema_decl_layout(struct mapinfo *m);
/* sema_loop.c */
/* Can a probe read M's aggregated value (0.26: count, sum, min, max,
 * avg, merged over the CPUs in BPF)?  Its type then. */
bool sema_agg_readable(const struct sema *s, const struct mapinfo *m);
struct type *sema_agg_value(const struct mapinfo *m);
struct var *sema_for_map(struct sema *s, struct node *n);
void sema_for_map_end(struct sema *s, struct node *n, struct var *outer);

/* sema_expr.c */
struct type *sema_expr(struct sema *s, struct node *n);
/* sema.c: one statement */
void sema_stmt(struct sema *s, struct node *n);

/* sema_map.c */
/* Merge two types stored in the same place (a variable, a map key or
 * value): integers widen to 64 bits, strings to the longer, tuples
 * element-wise.  NULL if they cannot share storage. */
struct type *sema_unify(struct sema *s, struct type *old, struct type *new);
/* The storage form of a value type: integers kept as 64-bit. */
struct type *sema_storage(struct sema *s, struct type *t);
const char *sema_agg_name(enum agg_kind a);	/* "count()" */
/* The variable NAME where it is used (0.26: the one in scope). */
struct var *sema_var_find(struct sema *s, const char *name);
struct var *sema_var_new(struct sema *s, struct node *target, struct type *ty);

/* sema_scope.c: declarations and block scope (docs/language.md,
 * "Declarations and scope") */
/* The variable the assignment or declaration TARGET (an N_VAR) writes:
 * the one in scope, or the one TARGET declared in an earlier pass (made
 * live again); NULL if it is new. */
struct var *sema_var_lookup(struct sema *s, struct node *target);
/* V comes into scope (0.26). */
void sema_var_live(struct sema *s, struct var *v);
/* Enter and leave block B (a statement block, a block expression, a
 * for loop's head); leaving ends the variables declared in it. */
struct node *sema_scope_enter(struct sema *s, struct node *b);
void sema_scope_leave(struct sema *s, struct node *outer);
/* A new probe body: no variable is live. */
void sema_scope_reset(struct sema *s);
/* After a probe body's last pass: a warning for each `let $x;` never
 * assigned. */
void sema_never_set(struct sema *s);
/* let $x [: TYPE] [= value]. */
void sema_let(struct sema *s, struct node *n);
/* $x = value of type T into variable V declared with a type: checked
 * against it (a constant must fit); true when V's type is fixed and
 * the assignment was handled. */
bool sema_typed_assign(struct sema *s, struct node *n, struct var *v,
		       struct type *t);
/* A loop variable's declaration (for): an error when it shadows one in
 * scope (0.26). */
void sema_loop_var(struct sema *s, struct node *var);
struct type *sema_block_expr(struct sema *s, struct node *n);
/* The error for a variable N used where none of its name is in scope
 * (0.26), saying where one ended if there was. */
void sema_undeclared(struct sema *s, struct node *n);
/* &$x (0.26): a pointer to the variable, whose value is of type T. */
struct type *sema_var_addr(struct sema *s, struct node *n, struct type *t);
/* $s[i] of a string T: a character, int8. */
struct type *sema_str_index(struct sema *s, struct node *n, struct type *t);
/* $t[N] of a tuple, N a constant: N becomes $t.N (an N_FIELD), true;
 * false after an error. */
bool sema_tuple_index(struct sema *s, struct node *n);
/* The map @x of N (created on first sight), and with its keys checked
 * and merged into the map's key type. */
struct mapinfo *sema_map_get(struct sema *s, struct node *n);
struct mapinfo *sema_map_keys(struct sema *s, struct node *n);
/* An event of kind KIND for call N (printf, print, exit ...), in the
 * last pass; its arguments' layout in the record. */
struct event_spec *sema_add_event(struct sema *s, struct node *n,
				  enum ev_kind kind);
void sema_event_args(struct sema *s, struct event_spec *e,
		     struct node **args, int nargs);

/* sema_ctx.c */
/* Names of builtins (pid, comm, ...): a call to one is a mistake. */
bool sema_is_builtin(const char *name);
/* A builtin (N_BUILTIN): pid, args, arg0, retval, an enumerator ... */
struct type *sema_builtin(struct sema *s, struct node *n);
struct type *sema_call_builtin(struct sema *s, struct node *n);
/* args.NAME: a tracepoint field or a BTF-typed argument, the same in
 * every probe of the block. */
struct type *sema_args_field(struct sema *s, struct node *n);
/* p->member and s.member of the kernel struct T points to or is. */
struct type *sema_btf_field(struct sema *s, struct node *n, struct type *t);
/* *p, of a pointer or an address T. */
struct type *sema_deref(struct sema *s, struct node *n, struct type *t);

/* sema_call.c */
/* An integer argument that must be known at compile time. */
bool sema_const_int(struct sema *s, struct node *n, int64_t *v,
		    const char *what);
bool sema_is_agg_func(int f);
/* The constant arguments of a histogram aggregation. */
struct agg_args {
	int64_t lmin, lmax, lstep;	/* lhist, D's lquantize */
	int64_t bits;			/* hist */
	int llq[4];			/* llquantize: factor, low, high, steps */
};
/* sema_dagg.c: D's checks of its aggregations, with DTrace's tags.
 * The arguments of lquantize() or llquantize() (F) into A; the second
 * use of M as AGG with A against the first; the value of a call that
 * takes one (a scalar); @a = EXPR (true when EXPR may be assigned). */
bool sema_dagg_args(struct sema *s, struct node *call, int f,
		    struct agg_args *a);
bool sema_dagg_merge(struct sema *s, struct node *call, struct mapinfo *m,
		     enum agg_kind agg, const struct agg_args *a);
bool sema_dagg_value(struct sema *s, struct node *call);
bool sema_dagg_plain(struct sema *s, struct node *n);
/* Is function F D's own (stddev, quantize, ...), unknown in bpftrace? */
bool sema_func_d_only(int f);
/* The fewest arguments function F takes. */
int sema_func_min_args(int f);
int sema_func_max_args(int f);
/* F_* of a function name, or -1. */
int sema_func_lookup(const char *name);
/* sema_func_lookup() less the functions S's language lacks */
int sema_func_find(const struct sema *s, const char *name);
/* Whether every probe of the block has FLAG (PF_*), else an error
 * naming the first that has not. */
bool sema_all_probes(struct sema *s, struct node *n, unsigned flag);
/* kstack / ustack, called or bare. */
struct type *sema_stack(struct sema *s, struct node *n, bool user);
/* A call: its arguments checked, its type; ASSIGNED when it is the
 * value of a map assignment (aggregations). */
struct type *sema_call(struct sema *s, struct node *n, bool assigned);

/* sema_value.c: bools, records, enums, offsetof (0.26) */
/* What comparisons, ! && || and true give: bool, or int64 in 0.17. */
struct type *sema_bool_type(struct sema *s);
/* The type of enumerator NAME, a constant: its enum's (0.26). */
struct type *sema_enum_const(struct sema *s, const char *name);
/* (enum E)x and (bool)"string" of N, whose operand has type T. */
struct type *sema_enum_cast(struct sema *s, struct node *n, struct type *t);
struct type *sema_bool_cast(struct sema *s, struct node *n, struct type *t);
/* Record N of element types E, and $r.name of record T. */
struct type *sema_record(struct sema *s, struct node *n, struct type **e);
struct type *sema_record_field(struct sema *s, struct node *n,
			       struct type *t);
struct type *sema_offsetof(struct sema *s, struct node *n);
/* (int8[8])x and (uint64)array of N, whose operand has type T. */
struct type *sema_array_cast(struct sema *s, struct node *n, struct type *t);
/* Integer type T of a field the C type CTYPE names: an enum's value,
 * a bool, as BTF would type it. */
struct type *sema_c_int_type(struct sema *s, struct type *t,
			     const char *ctype);

/* sema_func.c */
/* N where a string literal is required: a literal, or $N or str($N),
 * which N becomes; false if it is something else. */
bool sema_literal(struct sema *s, struct node *n);
/* str($N), str($N + K): N becomes the parameter's text, a literal;
 * false if N is another str(). */
bool sema_str_positional(struct sema *s, struct node *n);
/* The index of string S in the table *V of *N strings (in the arena),
 * added if new. */
int sema_intern(struct compiler *c, const char ***v, int *n, const char *s);
/* The checkers funcs.def names (sema_call.c picks them from its table). */
struct type *call_strerror(struct sema *s, struct node *n);
struct type *call_path(struct sema *s, struct node *n);
struct type *call_skboutput(struct sema *s, struct node *n);
struct type *call_addrspace(struct sema *s, struct node *n);
struct type *call_strcontains(struct sema *s, struct node *n);
struct type *call_has_key(struct sema *s, struct node *n);
struct type *call_pton(struct sema *s, struct node *n);
struct type *call_cgroup_path(struct sema *s, struct node *n);
/* sema_dstr.c: DTrace's string subroutines */
struct type *call_strjoin(struct sema *s, struct node *n);
/* sema_dmsg.c: a type as D's messages name it (string, int, uchar_t) */
const char *sema_d_type_name(const struct type *t);
/* A call of function F (funcs.def) with D's count of arguments, or
 * D_PROTO_LEN in dtrace's words: true after reporting */
bool sema_d_arity(struct sema *s, struct node *n, int f);
/* D's actions on a whole aggregation (clear, trunc, normalize,
 * denormalize, printa), whose errors have tags of their own
 * (D_CLEAR_PROTO, D_TRUNC_AGGARG, ...) */
bool sema_d_agg_action(const char *name);
/* Operator OP (a token; T_LAND, T_LOR, -1 for ?:) given operands of
 * types A and B (B NULL when UNARY) it does not take, in dtrace's words
 * and tags (D_OP_INT, D_OP_ARITH, D_OP_SCALAR, D_OP_INCOMPAT); false
 * outside D, where the caller says it its own way */
bool sema_d_op_error(struct sema *s, struct node *n, int op, int unary,
		     const struct type *a, const struct type *b);
/* D: a type named by C's words that do not go together ("char int",
 * "short long", "char long"): true after D_DECL_COMBO, D_UNKNOWN or
 * D_DECL_CHARATTR */
bool sema_d_type_words(struct sema *s, struct node *n, const char *name);
/* Their first argument, which must be an aggregation: true after
 * reporting D_<ACTION>_AGGARG */
bool sema_d_aggarg(struct sema *s, struct node *n, int argno);
/* Is the block a pinned iterator (iter:KIND:PIN)? Its printf()s go
 * through bpf_seq_printf(), and nothing else may print. */
bool sema_pinned(const struct sema *s);
/* D's printa(fmt, @a, ...): FMT (n->tyname) against @a's keys and
 * value, as dtrace checks it; true after reporting a mismatch. */
bool sema_d_printa_format(struct sema *s, struct node *n,
			  const struct mapinfo *m);
/* sema_dproto.c: argument I of N does not fit D's prototype PROTO
 * ("int", "char *"): D_PROTO_ARG in dtrace's words */
void sema_d_proto_arg(struct sema *s, struct node *n, int i, const char *proto);
/* A DTrace subroutine sonde's D lacks (chill, copyout, ...): checked
 * against its prototype, then reported; false for other names */
bool sema_d_missing(struct sema *s, struct node *n);
/* Whether NAME is one of those subroutines */
bool sema_d_known_missing(const char *name);
/* D: X, the target of OP (=, +=, ++), is no variable to write: a
 * built-in one (D_OP_WRITE) or no variable at all (D_OP_LVAL). */
void sema_d_not_lvalue(struct sema *s, struct node *x, const char *op);
/* sema_dagg.c: whether the program makes NAME an aggregation */
bool sema_d_agg_known(struct sema *s, const char *name);
/* sema_printf.c: printf(fmt, ...), system(), cat(), errorf(): the
 * format and its arguments checked, an event of KIND recorded; D's
 * printf()/system() by sema_d_printf */
struct type *sema_check_printf(struct sema *s, struct node *n,
			       enum ev_kind kind);
struct type *sema_d_printf(struct sema *s, struct node *n, enum ev_kind kind);
/* sema_dagg.c: D's normalize(), denormalize() */
struct type *call_normalize(struct sema *s, struct node *n);
/* D's printa() of several aggregations (lang/dlower.c marks it) */
bool sema_d_printa_many(const struct sema *s, const struct node *n);
struct type *sema_d_printa_join(struct sema *s, struct node *n);
/* sema_dvar.c: the type D declaration M (an N_MEMBER of dvars) gives
 * its variable (ty_error after D_DECL_VOIDOBJ or an unknown type) */
struct type *sema_d_var_type(struct sema *s, struct node *m);
/* A new map M that the program declared with a type other than an
 * integer's (a struct, an array, a pointer, a string): typed so */
void sema_d_declared_map(struct sema *s, struct mapinfo *m);
/* Assignment N of value type U into a member or element of a
 * clause-local: checked, true; false when N's target is no such place */
bool sema_d_member_store(struct sema *s, struct node *n, struct type *u);
/* &X (N) of a global's member or element, X of type T */
struct type *sema_d_addr(struct sema *s, struct node *n, struct type *t);
/* D's pointer arithmetic P + N or P - Q (N, types A and B) where it
 * is not C's as sonde does it: none on void *, D_OP_INCOMPAT; Q - P of
 * two pointers to one type counts elements.  True when N is typed */
bool sema_d_ptr_arith(struct sema *s, struct node *n, struct type *a,
		      struct type *b);
/* N (s.m or p->m, the value of type T) where D's operator does not fit
 * the value: true after D_OP_PTR or D_OP_SOU */
bool sema_d_member_op(struct sema *s, struct node *n, const struct type *t);
/* Assignment N to map M as D forbids it: true after D_OP_ARRFUN (a
 * whole array) or D_VAR_UNDEF (x += of a variable nothing assigns) */
bool sema_d_store_check(struct sema *s, struct node *n,
			const struct mapinfo *m);
/* sema_call.c: the map without keys a function like clear(@m) takes
 * (NULL after an error naming FN) */
struct mapinfo *sema_map_arg(struct sema *s, struct node *a, const char *fn);
struct type *call_substr(struct sema *s, struct node *n);
struct type *call_index(struct sema *s, struct node *n);
struct type *call_strchr(struct sema *s, struct node *n);
struct type *call_basename(struct sema *s, struct node *n);
struct type *call_lltostr(struct sema *s, struct node *n);
struct type *call_toupper(struct sema *s, struct node *n);
struct type *call_strtok(struct sema *s, struct node *n);
/* sema_lib.c */
struct type *call_typepred(struct sema *s, struct node *n);
struct type *call_fail(struct sema *s, struct node *n);
struct type *call_static_assert(struct sema *s, struct node *n);

/* sema_spec.c: D's speculations */
struct type *call_speculation(struct sema *s, struct node *n);
/* sema_dscratch.c: D's alloca(), bcopy() and stores through pointers
 * (true when N, an assignment, is one: checked, marked "pstore") */
struct type *call_dalloca(struct sema *s, struct node *n);
struct type *call_dbcopy(struct sema *s, struct node *n);
struct type *call_dcopyin(struct sema *s, struct node *n);
struct type *call_dpsargs(struct sema *s, struct node *n);
bool sema_d_pointer_store(struct sema *s, struct node *n, struct type *u);
/* A pointer to T (NULL, or a type no pointer names: void) in kernel
 * memory. */
struct type *sema_d_kptr(struct sema *s, const struct type *t);
/* ... is N such a place; &N of one, a pointer into the same memory */
bool sema_d_through_pointer(const struct node *n);
struct type *sema_d_place_addr(struct sema *s, struct node *n, struct type *t);
/* sema_dfault.c: $fault(N) of an ERROR clause's copy */
struct type *call_dfault(struct sema *s, struct node *n);
struct type *call_spec(struct sema *s, struct node *n);

/* sema_call26.c: the functions added after bpftrace 0.17 */
/* tseries(n, interval, count[, "agg"]): its constant arguments. */
struct ts_args {
	int64_t interval;
	int n;
	int mode;	/* enum ts_mode */
};
bool sema_tseries_args(struct sema *s, struct node *call, struct ts_args *ts);
/* The keys A (@m of call N) are one tuple value for a map of several
 * keys: its elements become the keys (n->extra keeps them). */
void sema_spread_key(struct sema *s, struct node *n, struct node *a);
struct type *call_strlen(struct sema *s, struct node *n);
struct type *call_strcap(struct sema *s, struct node *n);
struct type *call_strstr(struct sema *s, struct node *n);
struct type *call_memcmp(struct sema *s, struct node *n);
struct type *call_socket_cookie(struct sema *s, struct node *n);
struct type *call_percpu_kaddr(struct sema *s, struct node *n);
struct type *call_write_user(struct sema *s, struct node *n);
struct type *call_getopt(struct sema *s, struct node *n);
struct type *call_find(struct sema *s, struct node *n);
struct type *call_len(struct sema *s, struct node *n);
/* Every named program parameter must be some getopt()'s: -1 if not. */
int sema_named_unused(struct compiler *c);

#endif
