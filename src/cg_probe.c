/* cg_probe.c - what a probe's context holds: tracepoint record fields
 * (args.NAME), raw tracepoint arguments (argN), the kernel stack. */
#include "cg.h"

#include <errno.h>
#include <string.h>

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
	const struct tp_field *f = field(g, n);
	int size;

	if (!f) {
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	g->uses_ctx = true;
	size = f->kind == TPF_INT ? f->int_size : f->size > 8 ? 8 : f->size;
	cg_emit(g, LDX(size_code(size), R0, RCTX, (int16_t)f->offset));
	cg_norm(g, R0, n->ty);
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

/* argN of a raw tracepoint: the Nth u64 of the context. */
void cg_arg(struct cg *g, struct node *n)
{
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)(8 * n->ival)));
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
