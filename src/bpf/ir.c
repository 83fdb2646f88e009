/* ir.c - building the instruction list cg emits: instructions,
 * symbolic jump labels, 64-bit loads the loader relocates. */
#include "bpf/ir.h"

#include <stdlib.h>
#include <string.h>

void ir_init(struct ir *ir)
{
	memset(ir, 0, sizeof(*ir));
}

void ir_free(struct ir *ir)
{
	free(ir->v);
	free(ir->label_at);
	free(ir->funcs);
	memset(ir, 0, sizeof(*ir));
}

int ir_label(struct ir *ir)
{
	if (ir->nlabels == ir->labels_cap) {
		ir->labels_cap = ir->labels_cap ? ir->labels_cap * 2 : 64;
		ir->label_at = xrealloc(ir->label_at, sizeof(int) *
					(size_t)ir->labels_cap);
	}
	ir->label_at[ir->nlabels] = -1;
	return ir->nlabels++;
}

void ir_bind(struct ir *ir, int label)
{
	ir->label_at[label] = ir->n;
}

static struct ir_insn *slot(struct ir *ir)
{
	struct ir_insn *x;

	/* Past the kernel's limit keep rewriting the last slot: asm_resolve
	 * reports the overflow, and memory stays bounded. */
	if (ir->n >= MAX_INSNS + 2) {
		ir->overflow = true;
		x = &ir->v[ir->n - 1];
		memset(x, 0, sizeof(*x));
		x->target = -1;
		return x;
	}
	if (ir->n == ir->cap) {
		ir->cap = ir->cap ? ir->cap * 2 : 256;
		ir->v = xrealloc(ir->v, sizeof(*ir->v) * (size_t)ir->cap);
	}
	x = &ir->v[ir->n++];
	memset(x, 0, sizeof(*x));
	x->target = -1;
	x->line = ir->line;
	return x;
}

void ir_emit(struct ir *ir, struct bpf_insn in)
{
	slot(ir)->in = in;
}

void ir_jump(struct ir *ir, struct bpf_insn in, int label)
{
	struct ir_insn *x = slot(ir);

	x->in = in;
	x->target = label;
}

void ir_ld64(struct ir *ir, int dst, uint64_t imm, enum reloc_kind reloc,
	     int arg)
{
	struct ir_insn *x = slot(ir);

	x->in = bpf_i(BPF_LD | BPF_DW | BPF_IMM, (uint8_t)dst, 0, 0,
		      (int32_t)(uint32_t)imm);
	x->reloc = reloc;
	x->reloc_arg = arg;
	if (reloc == RELOC_MAP_FD || reloc == RELOC_SCRATCH_FD ||
	    reloc == RELOC_RINGBUF_FD || reloc == RELOC_STACK_FD ||
	    reloc == RELOC_USEEN_FD || reloc == RELOC_SKB_FD ||
	    reloc == RELOC_SITES_FD || reloc == RELOC_SYSNR_FD ||
	    reloc == RELOC_UNW_FD ||
	    reloc == RELOC_DWSTACK_FD)
		x->in.src_reg = BPF_PSEUDO_MAP_FD;
	else if (reloc == RELOC_STATS)	/* imm's high half: the offset */
		x->in.src_reg = BPF_PSEUDO_MAP_VALUE;
	x = slot(ir);
	x->in = bpf_i(0, 0, 0, 0, (int32_t)(uint32_t)(imm >> 32));
}

void ir_ld_func(struct ir *ir, int dst, int label)
{
	int at = ir->n;

	ir_ld64(ir, dst, 0, RELOC_NONE, 0);
	ir->v[at].in.src_reg = BPF_PSEUDO_FUNC;
	ir->v[at].target = label;
}

void ir_call(struct ir *ir, int label)
{
	ir_jump(ir, bpf_i(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), label);
}

void ir_func(struct ir *ir, int label)
{
	if (ir->nfuncs == ir->funcs_cap) {
		ir->funcs_cap = ir->funcs_cap ? ir->funcs_cap * 2 : 16;
		ir->funcs = xrealloc(ir->funcs, sizeof(int) *
				     (size_t)ir->funcs_cap);
	}
	ir->funcs[ir->nfuncs++] = label;
}

void ir_unfunc(struct ir *ir, int label)
{
	for (int f = 0; f < ir->nfuncs; f++)
		if (ir->funcs[f] == label) {
			memmove(&ir->funcs[f], &ir->funcs[f + 1],
				sizeof(*ir->funcs) * (size_t)(ir->nfuncs - f - 1));
			ir->nfuncs--;
			return;
		}
}
