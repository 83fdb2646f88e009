/* cg_call26.c - code of the functions bpftrace added after 0.17 that
 * have a value: strlen(), strcap() of a pointer, memcmp(),
 * socket_cookie(), percpu_kaddr(), write_user(), find(), len() and
 * the callback len(@m) needs.  (strstr() shares strcontains()'s search
 * in cg_call.c, tseries() is an aggregation in cg_map.c; the
 * compile-time ones are constants.) */
#include "bpf/cg_int.h"

/* r0 = the length of the string at the address in r3, read with
 * HELPER into a scratch buffer of SIZE bytes: the helper's count, its
 * NUL excluded (0 when the read fails). */
static void str_len_at(struct cg *g, struct node *n, int helper, int size)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem buf = cg_scratch_alloc(g, ALIGN_UP(size, 8), n);
	int done = cg_label(g);

	cg_addr_of(g, R1, buf);
	cg_emit(g, MOV_IMM(R2, size));
	cg_call(g, helper);
	cg_emit(g, ALU64_IMM(BPF_SUB, R0, 1));
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), done);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* strlen(s), and strcap(p) of a pointer: a string value is copied
 * with bpf_probe_read_kernel_str from where it is, whose count is its
 * length plus one; a pointer's string is read from the process or the
 * kernel, at most BPFTRACE_MAX_STRLEN bytes. */
static void str_len(struct cg *g, struct node *n)
{
	struct node *a = n->args[0];
	int saved = g->scratch, saved_stack = g->stack;

	if (a->ty->kind == TY_PTR || a->ty->kind == TY_INT) {
		cg_int(g, a);
		cg_emit(g, MOV_REG(R3, R0));
		str_len_at(g, n, cg_read_helper(g, a->ty, true), g->c->strlen_);
	} else {
		struct mem m = cg_addr(g, a);

		cg_addr_of(g, R3, m);
		str_len_at(g, n, BPF_FUNC_probe_read_kernel_str, a->ty->size);
	}
	g->scratch = saved;
	g->stack = saved_stack;
}

/* memcmp(a, b, count): both values in memory, compared a byte at a
 * time at constant offsets (unrolled: no loop for the verifier to
 * walk, no variable offsets into the stack); a count known only at run
 * time is kept in r8 and ends the compare when reached. */
static void memcmp_code(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct node *cnt = n->args[2];
	int lim = n->args[0]->ty->size < n->args[1]->ty->size ?
		  n->args[0]->ty->size : n->args[1]->ty->size;
	int diff = cg_label(g), equal = cg_label(g), done = cg_label(g);
	struct mem ma, mb;
	int cslot = 0;

	if (cnt->is_const)
		lim = (int)cnt->cval;
	else {
		cslot = cg_stack_alloc(g, n);
		cg_int(g, cnt);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)cslot, R0));
	}
	ma = cg_addr(g, n->args[0]);
	mb = cg_addr(g, n->args[1]);
	if (!cnt->is_const)
		cg_emit(g, LDX(BPF_DW, R8, RFP, (int16_t)cslot));
	for (int i = 0; i < lim; i++) {
		if (!cnt->is_const)
			cg_jump(g, JMP_IMM(BPF_JLE, R8, i), equal);
		cg_emit(g, LDX(BPF_B, R1, ma.base, (int16_t)(ma.off + i)));
		cg_emit(g, LDX(BPF_B, R2, mb.base, (int16_t)(mb.off + i)));
		cg_jump(g, JMP_REG(BPF_JNE, R1, R2), diff);
	}
	cg_bind(g, equal);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_jump(g, JA(), done);
	cg_bind(g, diff);
	cg_emit(g, MOV_REG(R0, R1));
	cg_emit(g, ALU64_REG(BPF_SUB, R0, R2));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* percpu_kaddr("sym"[, cpu]): bpf_this_cpu_ptr or bpf_per_cpu_ptr of
 * the variable, named by its BTF id in an ld_imm64 (BPF_PSEUDO_BTF_ID:
 * the verifier resolves it to the per-CPU address). */
static void percpu_kaddr(struct cg *g, struct node *n)
{
	if (n->nargs == 2) {
		cg_int(g, n->args[1]);
		cg_emit(g, MOV_REG(R2, R0));
	}
	ir_ld64(&g->ir, R1, (uint64_t)n->cval, RELOC_NONE, 0);
	g->ir.v[g->ir.n - 2].in.src_reg = BPF_PSEUDO_BTF_ID;
	cg_call(g, n->nargs == 2 ? BPF_FUNC_per_cpu_ptr : BPF_FUNC_this_cpu_ptr);
}

/* write_user(dst, src, len): 1 when bpf_probe_write_user wrote. */
static void write_user(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	int dslot = cg_stack_alloc(g, n);
	struct mem m;
	int ok = cg_label(g);

	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)dslot, R0));
	m = cg_addr(g, n->args[1]);
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)dslot));
	cg_addr_of(g, R2, m);
	cg_emit(g, MOV_IMM(R3, (int32_t)n->args[2]->cval));
	cg_call(g, BPF_FUNC_probe_write_user);
	cg_check_helper(g, BPF_FUNC_probe_write_user, n);
	cg_emit(g, MOV_REG(R1, R0));
	cg_emit(g, MOV_IMM(R0, 1));
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), ok);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, ok);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* len(@m): the number of elements, which bpf_for_each_map_elem
 * returns after calling a callback for each (one that returns 0: go
 * on); the callback is emitted after the body (cg_call26_funcs). */
static void map_len(struct cg *g, struct node *n)
{
	if (!g->count_label)
		g->count_label = cg_label(g);
	cg_ld_map(g, R1, RELOC_MAP_FD, n->args[0]->map->id);
	ir_ld_func(&g->ir, R2, g->count_label);
	cg_emit(g, MOV_IMM(R3, 0));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_for_each_map_elem);
}

/* len(kstack), len(ustack): the stack's depth, bpf_get_stack's bytes
 * over 8, read into scratch (at most the stack's frame limit). */
static void stack_len(struct cg *g, struct node *n)
{
	const struct type *t = n->args[0]->ty;
	int saved = g->scratch, saved_stack = g->stack;
	struct mem buf = cg_scratch_alloc(g, 8 * t->sdepth, n);
	int done = cg_label(g);

	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R1, RCTX));
	cg_addr_of(g, R2, buf);
	cg_emit(g, MOV_IMM(R3, 8 * t->sdepth));
	cg_emit(g, MOV_IMM(R4, t->suser ? BPF_F_USER_STACK : 0));
	cg_call(g, BPF_FUNC_get_stack);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), done);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
	cg_emit(g, ALU64_IMM(BPF_RSH, R0, 3));
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_call26_funcs(struct cg *g)
{
	if (g->count_label > 0) {
		ir_func(&g->ir, g->count_label);
		cg_bind(g, g->count_label);
		cg_emit(g, MOV_IMM(R0, 0));
		cg_emit(g, EXIT());
	}
}

/* The calls of this file with an integer value; false for others. */
bool cg_call26_int(struct cg *g, struct node *n)
{
	switch (n->builtin) {
	case F_STRLEN: case F_STRCAP:
		str_len(g, n);
		return true;
	case F_STRSTR:
		cg_strcontains(g, n);
		return true;
	case F_MEMCMP:
		memcmp_code(g, n);
		return true;
	case F_SOCKET_COOKIE:
		cg_int(g, n->args[0]);
		cg_emit(g, MOV_REG(R1, R0));
		cg_call(g, BPF_FUNC_get_socket_cookie);
		return true;
	case F_PERCPU_KADDR:
		percpu_kaddr(g, n);
		return true;
	case F_WRITE_USER:
		write_user(g, n);
		return true;
	case F_LEN:
		if (n->args[0]->kind == N_MAP)
			map_len(g, n);
		else
			stack_len(g, n);
		return true;
	case F_FIND: {
		struct var *v = n->args[2]->var;
		struct mem dst = { v->in_scratch ? RSCR : RFP, v->slot };

		cg_map_find(g, n->args[0], dst, v->ty);
		return true;
	}
	default:
		return false;
	}
}
