/* cg_probe.c - what a probe's context holds: tracepoint record fields
 * (args.NAME) and raw tracepoint arguments (argN). */
#include "cg.h"

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
