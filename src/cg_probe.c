/* cg_probe.c - what a probe's context holds: tracepoint record fields
 * (args.NAME), raw tracepoint arguments (argN), the iterator context
 * (ctx), members of kernel structs reached through pointers, and the
 * kernel stack. */
#include "cg.h"

#include <errno.h>
#include <string.h>

#include "arch.h"
#include "btf.h"
#include "tracefs.h"

static const struct tp_field *field(struct cg *g, struct node *n)
{
	const struct tp_format *tp = g->ps->tp;

	for (int k = 0; tp && k < tp->nfields; k++)
		if (!strcmp(tp->fields[k].name, n->name))
			return &tp->fields[k];
	return NULL;
}

static int size_code(int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

/* An integer or pointer field into r0, canonical for its type. */
void cg_args_int(struct cg *g, struct node *n)
{
	const struct tp_field *f;
	int size;

	if (g->ps->kind == PK_RAWTP) {
		/* tp_btf: the context is the array of the arguments */
		const char **names;
		struct type **types;
		int id, k = btf_tp_args(g->c, g->ps->target, &names, &types, &id);

		for (int i = 0; i < k; i++) {
			if (strcmp(names[i], n->name))
				continue;
			g->uses_ctx = true;
			cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)(8 * i)));
			cg_norm(g, R0, n->ty);
			return;
		}
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	f = field(g, n);

	if (!f) {
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	g->uses_ctx = true;
	size = f->kind == TPF_INT ? f->int_size : f->size > 8 ? 8 : f->size;
	cg_emit(g, LDX(size_code(size), R0, RCTX, (int16_t)f->offset));
	/* extend by this tracepoint's own field type: the block's type may
	 * be wider when its tracepoints disagree */
	if (f->kind == TPF_INT)
		cg_norm(g, R0, ty_int(f->int_size, f->is_signed));
}

/* A string field into DST: char[N] in the record, or __data_loc. */
void cg_args_str(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt)
{
	const struct tp_field *f = field(g, n);
	int slot = ty_slot_size(dt), size;

	cg_zero(g, dst, 0, slot);
	if (!f)
		return;
	g->uses_ctx = true;
	if (f->kind == TPF_DATALOC) {
		/* u32: offset of the string in the record, length above */
		size = dt->size;
		cg_emit(g, LDX(BPF_W, R3, RCTX, (int16_t)f->offset));
		cg_emit(g, ALU64_IMM(BPF_AND, R3, 0xffff));
		cg_emit(g, ALU64_REG(BPF_ADD, R3, RCTX));
		cg_emit(g, MOV_IMM(R2, size));
		cg_addr_of(g, R1, dst);
		cg_call(g, BPF_FUNC_probe_read_kernel_str);
		return;
	}
	/* char name[N]: copy it, keeping the last byte a terminator */
	size = f->size < dt->size ? f->size : dt->size;
	cg_emit(g, MOV_REG(R3, RCTX));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, f->offset));
	cg_emit(g, MOV_IMM(R2, size));
	cg_addr_of(g, R1, dst);
	cg_call(g, BPF_FUNC_probe_read_kernel);
	cg_zero(g, dst, dt->size - 1, dt->size);
}

/* argN: the Nth u64 of a raw tracepoint's context, the register of
 * the Nth argument in a uprobe's pt_regs, or a usdt note's operand. */
void cg_arg(struct cg *g, struct node *n)
{
	int off = g->ps->kind == PK_UPROBE ? pt_regs_arg((int)n->ival)
					   : 8 * (int)n->ival;

	if (g->ps->kind == PK_USDT) {
		cg_usdt_arg(g, n);
		return;
	}
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)off));
}

/* retval and reg("name") of uprobes: pt_regs fields. */
void cg_reg(struct cg *g, int off)
{
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)off));
}

/* ctx: the context pointer itself. */
void cg_ctx(struct cg *g)
{
	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R0, RCTX));
}

/* r0 = the address of member N (a B_BTF_FIELD node), or 0 when the
 * pointer it goes through is NULL (jumping to NULLED then). */
static void member_addr(struct cg *g, struct node *n, int nulled)
{
	cg_int(g, n->a);	/* a pointer, or a struct's address */
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), nulled);
	if (n->foff)
		cg_emit(g, ALU64_IMM(BPF_ADD, R0, n->foff));
}

/* Integer, pointer or struct-address member into r0. */
void cg_btf_int(struct cg *g, struct node *n)
{
	int done = cg_label(g), saved = g->stack;
	int size = n->fbits ? 8 : n->ty->kind == TY_STRUCT ? 0 : n->ty->size;
	int slot;

	/* The iterator context is read directly (the verifier types it). */
	if (n->a->kind == N_BUILTIN && n->a->builtin == B_CTX) {
		g->uses_ctx = true;
		cg_emit(g, LDX(size_code(size), R0, RCTX, (int16_t)n->foff));
		cg_norm(g, R0, n->ty);
		return;
	}
	member_addr(g, n, done);
	if (n->ty->kind == TY_STRUCT) {	/* an embedded struct: its address */
		cg_bind(g, done);
		return;
	}
	slot = cg_stack_alloc(g, n);
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)slot, 0));
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, size));
	cg_emit(g, MOV_REG(R1, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, slot));
	cg_call(g, BPF_FUNC_probe_read_kernel);
	cg_emit(g, LDX(size_code(size), R0, RFP, (int16_t)slot));
	if (n->fbits) {
		if (n->fshift)
			cg_emit(g, ALU64_IMM(BPF_RSH, R0, n->fshift));
		if (n->fbits < 32) {
			cg_emit(g, ALU64_IMM(BPF_AND, R0, (int32_t)((1u << n->fbits) - 1)));
		} else if (n->fbits < 64) {
			cg_emit(g, ALU64_IMM(BPF_LSH, R0, 64 - n->fbits));
			cg_emit(g, ALU64_IMM(BPF_RSH, R0, 64 - n->fbits));
		}
	} else {
		cg_norm(g, R0, n->ty);
	}
	cg_bind(g, done);
	g->stack = saved;
}

/* A char[N] member into DST as a string. */
void cg_btf_str(struct cg *g, struct node *n, struct mem dst,
		const struct type *dt)
{
	int done = cg_label(g);
	int size = n->ty->size < dt->size ? n->ty->size : dt->size;

	cg_zero(g, dst, 0, ty_slot_size(dt));
	member_addr(g, n, done);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, size));
	cg_addr_of(g, R1, dst);
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
	cg_bind(g, done);
}

/* kstack into r0: 1 + the id bpf_get_stackid gives the stack in the map
 * of its depth, or 0 when there is none, so that a zeroed variable or a
 * missing map value is the empty stack too.  -EFAULT means the probe
 * interrupted user space (no kernel stack); any other failure (the
 * hash bucket holds another stack, the map is full) is counted.
 * Flags 0: BPF_F_REUSE_STACKID would let a new stack take over an id
 * that map keys already hold, and BPF_F_FAST_STACK_CMP would take two
 * stacks with the same 32-bit hash for one. */
void cg_kstack(struct cg *g, struct node *n)
{
	int ok = cg_label(g), none = cg_label(g);

	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R1, RCTX));
	cg_ld_map(g, R2, RELOC_STACK_FD,
		  compiler_stack_map(g->c, n->ty->sdepth));
	cg_emit(g, MOV_IMM(R3, 0));
	cg_call(g, BPF_FUNC_get_stackid);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, -EFAULT), none);
	cg_count_stat(g, STATS_STACKS(g->c));
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, -1));
	cg_bind(g, ok);
	cg_emit(g, ALU64_IMM(BPF_ADD, R0, 1));
}
