/* cg_int.h - private to the code generator's files, the one header
 * through which their recursion goes (an expression holds calls, a call
 * holds expressions): cg_emit.c (instructions, labels, memory: below
 * the others), cg.c (programs and statements), cg_expr.c (expressions),
 * cg_map.c (maps and aggregations), cg_tuple.c (tuples' elements),
 * cg_call.c (functions and events),
 * cg_ctx.c, cg_usdt.c and cg_uarg.c (what probes' contexts hold).
 *
 * Conventions of the generated code:
 *   r6  the probe's context (saved from r1 when used)
 *   r9  the per-CPU scratch buffer: what does not fit on the stack
 *   r10 the stack: variables, spilled temporaries, and keys, values and
 *       records while they fit (cg_tmp_alloc); a program that needs no
 *       scratch skips looking it up
 *   r0  integer results of expressions; r1-r5 helper arguments
 * Integers in registers are always canonical: sign- or zero-extended
 * from their type's width to 64 bits.  Strings are zero-padded to their
 * slot, so equality and hashing compare whole 8-byte words.
 */
#ifndef SONDE_CG_INT_H
#define SONDE_CG_INT_H

#include "bpf/asm.h"
#include "bpf/cg.h"
#include "sema/sema.h"

#define R0 BPF_REG_0
#define R1 BPF_REG_1
#define R2 BPF_REG_2
#define R3 BPF_REG_3
#define R4 BPF_REG_4
#define R5 BPF_REG_5
#define RCTX BPF_REG_6
#define R7 BPF_REG_7
#define R8 BPF_REG_8
#define RSCR BPF_REG_9
#define RFP BPF_REG_10

#define STACK_LIMIT 512
#define STACK_RESERVED 8	/* [r10-8, r10): the u32 key of lookups */
#define STACK_VARS 256		/* stack bytes for integer variables */
/* The scratch buffer is the value of a per-CPU array, which the kernel
 * caps at 32 KiB (PCPU_MIN_UNIT_SIZE: a larger one fails to create,
 * E2BIG); every scratch offset then also fits an instruction's 16-bit
 * offset field. */
#define SCRATCH_LIMIT (32 * 1024)

/* A place in memory: base register plus offset. */
struct mem {
	int base;
	int off;
};

/* raw_syscalls:sys_enter and sys_exit records: the call's number
 * (long id) after the 8 bytes of common fields. */
#define SYS_ID_OFF 8
/* cg_site.c: the prologue of a raw_syscalls merge: a record of a call
 * none of its parts names goes to EXIT_LABEL (R1 the context, saved in
 * RCTX with SAVE_CTX). */
void cg_sys_select(struct ir *pro, int exit_label, bool save_ctx);

struct cg {
	struct compiler *c;
	struct ir ir;
	struct probe_spec *ps;
	struct probe_info *pi;
	int exit_label;
	int lookup_label;		/* > 0: map lookups call it */
	bool lookup_used;		/* some lookup called it */
	int count_label;		/* > 0: len(@m)'s callback, a
					 * subprogram emitted after the body */
	int stack, stack_max;		/* bytes below r10 in use */
	int stack_limit;		/* STACK_LIMIT, less in a piece */
	int scratch, scratch_max;	/* bytes of scratch in use */
	int brk, cont;			/* labels of the innermost loop */
	bool uses_ctx;
	bool ctx_read;			/* the kernel read being emitted is of
					 * the probe's own context (a
					 * tracepoint's record): allowed under
					 * c->restricted */
	bool piece;			/* in a piece of a split body */
	bool failed;
	bool tmp_on_stack;		/* cg_tmp_alloc may use the stack */
	bool retry;			/* the stack overflowed: again without */
	bool may_sleep;			/* the program can be sleepable */
	bool sleeps;			/* it calls a faulting helper */
	bool atomic;			/* it needs what a sleepable program
					 * may not have (stack trace maps) */
	/* Callbacks (cg_loop.c): the bodies of loops over maps and the
	 * merging of per-CPU values, subprograms emitted after the code
	 * that calls them. */
	int var_base;			/* the variables' frame: RFP, or R8 in
					 * a callback (the main frame's r10) */
	int fe_slot;			/* main frame: r6 saved, then the flag
					 * that a loop's body ended the probe */
	int fe_cur;			/* the callback being emitted */
	int ret_slot;			/* a BPF_MODIFY_RETURN program: the
					 * value it returns, 0 until
					 * override() sets it (0: none) */
	/* D: a fault (a read that failed, a division by zero) stops the
	 * clause: its code stores what it was at fault_slot (the fault
	 * and the action, then the address) and jumps to fault_label,
	 * which reports it and runs the ERROR clauses (cg.c) */
	bool faults;
	int fault_label, fault_slot;
	int action;			/* the action being emitted, from 1 */
	int dbase_slot;			/* D's scratch memory: where the
					 * prologue put its address, as a
					 * number (cg_dscratch.c) */
	struct node *spec;		/* D: after speculate(), the variable
					 * with its id, which records carry
					 * (cg_spec.c) */
	struct cg_cb *cbs;
	int ncbs, cbs_cap;
};

/* Where variable V lives: scratch, or the probe's stack frame. */
static inline int cg_var_reg(const struct cg *g, const struct var *v)
{
	return v->in_scratch ? RSCR : g->var_base;
}

/* cg_emit.c */
void cg_emit(struct cg *g, struct bpf_insn in);
void cg_jump(struct cg *g, struct bpf_insn in, int label);
int cg_label(struct cg *g);
void cg_bind(struct cg *g, int label);
void cg_imm(struct cg *g, int reg, int64_t v);
void cg_ld_map(struct cg *g, int reg, enum reloc_kind k, int arg);
void cg_call(struct cg *g, int helper);
int cg_stack_alloc(struct cg *g, struct node *at);
struct mem cg_scratch_alloc(struct cg *g, int size, struct node *at);
struct mem cg_tmp_alloc(struct cg *g, int size, struct node *at);
void cg_addr_of(struct cg *g, int reg, struct mem m);
void cg_zero(struct cg *g, struct mem m, int from, int to);
/* BPF_B, BPF_H, BPF_W or BPF_DW for an access of SIZE bytes. */
int cg_size_code(int size);
void cg_move(struct cg *g, struct mem dst, struct mem src, int n);
void cg_count_stat(struct cg *g, int slot);
void cg_read_call(struct cg *g, int helper, struct node *at);
/* -k: report HELPER's failure (r0 < 0) for the expression AT. */
void cg_check_helper(struct cg *g, int helper, struct node *at);
/* The same whatever -k says. */
void cg_report_helper(struct cg *g, int helper, struct node *at);
/* cg_report_helper()'s "helper" of a division by zero (today's
 * bpftrace warns, and takes 1 as the result) */
#define CG_DIVZERO (-1)

/* cg.c */
void cg_block(struct cg *g, struct node *b);
/* The statements of block expression N, before its value. */
void cg_block_stmts(struct cg *g, struct node *n);
/* N_BLOCKEXPR's value, its last element */
#define BLOCKEXPR_VALUE(n) ((n)->args[(n)->nargs - 1])
void cg_stmt(struct cg *g, struct node *n);
/* PRO inserted at instruction AT, labels bound there moving but KEEP. */
void cg_insert(struct cg *g, int at, struct ir *pro, int keep);
bool cg_names_reg(struct cg *g, int from, int r);
/* RSCR = this CPU's scratch (SHIFT bytes in: D's scratch memory is
 * first), jumping to FAIL without one */
void cg_scratch_lookup(struct ir *pro, int fail, int shift);

/* cg_loop.c */
/* A callback of bpf_loop() that another file writes: BODY(g, n, args)
 * emits its code when the callbacks are emitted, after the program;
 * the callback's label, for ir_ld_func(). */
#define CG_CB_ARGS 6
typedef void (*cg_cb_body)(struct cg *g, struct node *n, const int *args);
int cg_loop_callback(struct cg *g, struct node *n, cg_cb_body body,
		     const int args[CG_CB_ARGS]);
/* for ($kv : @m) { ... }: the body a callback of bpf_for_each_map_elem */
void cg_for_map(struct cg *g, struct node *n);
/* r0 = the value of aggregation @m[k] (N), merged over the CPUs */
void cg_percpu_read(struct cg *g, struct node *n);
/* the pending callbacks, at the end of the function that calls them */
void cg_callbacks(struct cg *g);
/* does the block hold a loop over a map? */
bool cg_has_formap(const struct node *n);

/* cg_expr.c */
void cg_int(struct cg *g, struct node *n);
void cg_norm(struct cg *g, int reg, const struct type *t);
void cg_branch(struct cg *g, struct node *n, int label, bool when);
void cg_store(struct cg *g, struct node *n, struct mem dst,
	      const struct type *dt);
struct mem cg_addr(struct cg *g, struct node *n);
void cg_copy(struct cg *g, struct mem dst, const struct type *dt,
	     struct mem src, const struct type *st);
void cg_literal(struct cg *g, struct mem dst, const struct type *dt,
		const char *s, size_t len);

/* cg_site.c */
/* DST (of type DT) = N, a name of the probe that fired (probe, func,
 * probefunc...): a literal, or in a merged program read from its table
 * of names; false when N is not such a name. */
bool cg_site_name(struct cg *g, struct node *n, struct mem dst,
		  const struct type *dt);

/* cg_map.c */
struct mem cg_map_key(struct cg *g, struct node *mapnode);
void cg_map_read(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt);
void cg_map_read_int(struct cg *g, struct node *n);
/* r0 = the address of @m[k]'s value, a zero value put there first when
 * it is missing; 0 when the map has no room */
void cg_map_addr(struct cg *g, struct node *n);
void cg_map_assign(struct cg *g, struct node *assign);
void cg_map_incdec(struct cg *g, struct node *n);
void cg_agg(struct cg *g, struct node *assign);
/* r0 = delete(...): 1 when the (last) entry was there */
void cg_map_delete_call(struct cg *g, struct node *call);
void cg_map_has_key(struct cg *g, struct node *mapnode);
/* Fold the integer in register V into the min() or max() pair {value,
 * set} at register P (T: a register to clobber). */
void cg_minmax_fold(struct cg *g, enum agg_kind agg, bool sgn, int v, int p,
		    int t);
/* find(@m, key, $v): r0 = 1 and the value into DST, or r0 = 0. */
void cg_map_find(struct cg *g, struct node *mapnode, struct mem dst,
		 const struct type *dt);
/* T_ADD_ASSIGN -> T_PLUS and so on. */
int cg_binop_of(int assign_op);

/* cg_ctx.c */
void cg_args_int(struct cg *g, struct node *n);
void cg_args_str(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt);
void cg_args_array(struct cg *g, struct node *n, struct mem dst);
void cg_arg(struct cg *g, struct node *n);
void cg_sarg(struct cg *g, struct node *n);
void cg_reg(struct cg *g, int off);
void cg_retval(struct cg *g, struct node *n);
void cg_ctx(struct cg *g);
void cg_btf_int(struct cg *g, struct node *n);
/* Assignment N into a member or constant element of a variable ($v.x =
 * e, D's this->p.x = e and its bitfields; sema_dvar.c) */
void cg_member_store(struct cg *g, struct node *n);
/* r0 = the value assignment N gives a place of integer or pointer type
 * T: N's value, or for x op= e, x op e in T */
void cg_assigned(struct cg *g, struct node *n, const struct type *t);
/* cg_dscratch.c: D's scratch memory.  The prologue's part (each
 * clause's scratch starts empty); r0 = alloca(n); bcopy(); the store
 * "pstore" assignment N makes through a pointer; and the check of a
 * SIZE-byte read at the address in r0 (kept), a fault when it is in
 * scratch memory no alloca() gave. */
void cg_dscratch_prologue(struct cg *g, struct ir *pro);
void cg_dalloca(struct cg *g, struct node *n);
/* r0 = alloca(n), or &p[i], &p->m ("paddr"): true when N is one */
bool cg_dscratch_int(struct cg *g, struct node *n);
void cg_dbcopy(struct cg *g, struct node *n);
void cg_dstore(struct cg *g, struct node *n);
void cg_dscratch_load(struct cg *g, int size);
/* r0 = the address of N, a place reached through a pointer (*p, p[i],
 * p->m), jumping to NULLED (after a fault, in D) when p is NULL */
void cg_place_addr(struct cg *g, struct node *n, int nulled);
/* D: fault FLT (DTRACEFLT_*) here, its address stored already: the
 * jump to the clause's fault path */
void cg_fault(struct cg *g, int flt);
/* D's probe ID of the program (the firing line's ID column) */
int cg_probe_id(const struct cg *g);
/* The helper (probe_read_user/_kernel, or their _str forms) for a read
 * at an address of type T: a pointer, an integer address, or a struct
 * used by address.  The process's memory in uprobes, usdt probes and
 * syscall tracepoints (whose pointer arguments point into the process),
 * and wherever the type says so (T->user: uptr()); the kernel's
 * elsewhere, for kptr() (T->kernel), and for kernel pointers and structs
 * (typed from BTF) anywhere. */
int cg_read_helper(struct cg *g, const struct type *t, bool str);
/* *p into r0 (N is the unary '*'). */
void cg_deref(struct cg *g, struct node *n);
/* Is N's value in the traced program's or the kernel's memory, reached
 * through a pointer (p->x, *p, p[i], p->arr[i]), rather than in BPF's
 * (a variable, a map value)?  cg_int() of such a struct or array gives
 * its address. */
bool cg_in_target(const struct node *n);
/* path(p) into DST: bpf_d_path's text, zeros when p is NULL or the
 * path does not fit. */
void cg_path(struct cg *g, struct node *n, struct mem dst,
	     const struct type *dt);
/* skboutput(): the packet of args[1] on the perf event array, after
 * a header (skb_header in run/); r0 the helper's result. */
void cg_skboutput(struct cg *g, struct node *n);
/* a[i] (N_INDEX) into r0: an integer element, or the address of a
 * struct or array element in target memory. */
void cg_index(struct cg *g, struct node *n);
/* A struct or array N in target memory into DST (its slot zeroed). */
void cg_read_value(struct cg *g, struct node *n, struct mem dst);
void cg_btf_str(struct cg *g, struct node *n, struct mem dst,
		const struct type *dt);
void cg_kstack(struct cg *g, struct node *n);
/* D's stackdepth, ustackdepth: r0 = the frames of the stack. */
void cg_stackdepth(struct cg *g, struct node *n);
void cg_caller(struct cg *g, struct node *n);
/* cg_seq.c: printf() of a pinned iterator, through bpf_seq_printf() */
void cg_seq_printf(struct cg *g, struct node *n, const struct event_spec *e);
/* A builtin's integer value into r0 (pid, nsecs, cpu, ...). */
void cg_builtin(struct cg *g, struct node *n);
int cg_note_pid(struct cg *g, struct node *n);
/* r0 = tgid << 32 | pid in sonde's pid namespace (0 outside it) */
void cg_ns_pid(struct cg *g);
/* cg_unwind.c: r0 = the user stack of ustack N walked by the CFI, as
 * cg_kstack's id before the process is added: 1 + id, 0 for none */
void cg_dwstack(struct cg *g, struct node *n);
void cg_usym(struct cg *g, struct node *n, struct mem dst);

/* cg_usdt.c */
void cg_usdt_arg(struct cg *g, struct node *n);

/* cg_uarg.c: args.NAME of uprobes, where DWARF and the calling
 * convention put the parameter at the entry */
void cg_uarg_int(struct cg *g, struct node *n);
void cg_uarg_value(struct cg *g, struct node *n, struct mem dst);
/* args alone: the struct value of the parameters into DST */
void cg_uargs(struct cg *g, struct node *n, struct mem dst);

/* cg_tuple.c */
/* Every element of T has its own slot, one after the other, and the
 * tuple ends with the last: nothing to zero, no element to move. */
bool cg_tuple_plain(const struct type *t);
/* Tuple N (an N_TUPLE) into DST as type DT. */
void cg_tuple_store(struct cg *g, struct node *n, struct mem dst,
		    const struct type *dt);
/* Element I of tuple T at TUP: N stored into it. */
void cg_tuple_elem_store(struct cg *g, struct node *n, struct mem tup,
			 const struct type *t, int i);
/* Tuple SRC of type ST into DST as type DT. */
void cg_tuple_copy(struct cg *g, struct mem dst, const struct type *dt,
		   struct mem src, const struct type *st);
/* Element I of tuple T at TUP: an integer into r0, or where the value
 * is as one of its own (a copy when the element has no slot of its
 * own). */
void cg_tuple_elem_int(struct cg *g, struct mem tup, const struct type *t,
		       int i);
struct mem cg_tuple_elem_addr(struct cg *g, struct mem tup,
			      const struct type *t, int i, struct node *at);

/* cg_call.c */
void cg_call_stmt(struct cg *g, struct node *n);
/* cg_spec.c: D's speculations */
void cg_speculation(struct cg *g, struct node *n);
void cg_spec_stmt(struct cg *g, struct node *n);
void cg_spec_tag(struct cg *g, struct mem rec);
void cg_str_call(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt);
/* r0 = strcontains(haystack, needle), or strstr()'s index (-1: none). */
void cg_strcontains(struct cg *g, struct node *n);
/* r2 = the mask of the nonzero bytes of the word in r2 (0xff each);
 * clobbers r3, r4. */
void cg_nonzero_bytes(struct cg *g);

/* cg_call26.c: the functions added after bpftrace 0.17; false if N is
 * none of them. */
bool cg_call26_int(struct cg *g, struct node *n);
/* The subprograms the body's calls need, after the body. */
void cg_call26_funcs(struct cg *g);
/* cg_dstr.c: DTrace's string subroutines; false if N is none of them.
 * A string into DST (of type DT), or an integer into r0. */
bool cg_dstr_store(struct cg *g, struct node *n, struct mem dst,
		   const struct type *dt);
bool cg_dstr_int(struct cg *g, struct node *n);
/* ntop(), macaddr() or buf() N into DST, laid out as its type says. */
void cg_bytes_call(struct cg *g, struct node *n, struct mem dst);

#endif
