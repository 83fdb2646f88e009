/* cg_usdt.c - argN of usdt probes: the operand the note gives for this
 * location, read from pt_regs (a register), taken as it is (a
 * constant), or read from user memory at an address computed from
 * registers; then truncated to its size and sign- or zero-extended. */
#include "bpf/cg_int.h"

#include "base/arch.h"
#include "catalog/usdt.h"

static int size_code(int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

/* REG += OFF, through r1 when OFF needs more than 32 bits. */
static void add_off(struct cg *g, int reg, int64_t off)
{
	if (!off)
		return;
	if (off >= INT32_MIN && off <= INT32_MAX) {
		cg_emit(g, ALU64_IMM(BPF_ADD, reg, (int32_t)off));
		return;
	}
	cg_imm(g, R1, off);
	cg_emit(g, ALU64_REG(BPF_ADD, reg, R1));
}

static void ld_reg(struct cg *g, int dst, int off)
{
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, dst, RCTX, (int16_t)off));
}

/* The operand of arg N (sema checked it exists and is readable) into
 * r0.  A memory operand that cannot be read (a bad pointer, a page not
 * present) reads as 0. */
void cg_usdt_arg(struct cg *g, struct node *n)
{
	const struct usdt_arg *a = &g->ps->uargs[n->ival];
	struct type *t = ty_int(a->size, a->is_signed);
	int saved = g->stack, slot, shift;

	switch (a->loc) {
	case USDT_REG:
		ld_reg(g, R0, a->base);
		if (a->shift)
			cg_emit(g, ALU64_IMM(BPF_RSH, R0, a->shift));
		break;
	case USDT_CONST:
		if (a->base >= 0) {	/* $sym: an address from ip */
			ld_reg(g, R0, a->base);
			add_off(g, R0, a->off);
		} else {
			cg_imm(g, R0, a->off);
		}
		break;
	case USDT_MEM:
		slot = cg_stack_alloc(g, n);
		cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)slot, 0));
		if (a->base >= 0)
			ld_reg(g, R3, a->base);
		else
			cg_emit(g, MOV_IMM(R3, 0));
		if (a->index >= 0) {
			ld_reg(g, R1, a->index);
			for (shift = 0; (1 << shift) < a->scale; shift++)
				;
			if (shift)
				cg_emit(g, ALU64_IMM(BPF_LSH, R1, shift));
			cg_emit(g, ALU64_REG(BPF_ADD, R3, R1));
		}
		add_off(g, R3, a->off);
		cg_emit(g, MOV_IMM(R2, a->size));
		cg_emit(g, MOV_REG(R1, RFP));
		cg_emit(g, ALU64_IMM(BPF_ADD, R1, slot));
		cg_read_call(g, BPF_FUNC_probe_read_user, n);
		cg_emit(g, LDX(size_code(a->size), R0, RFP, (int16_t)slot));
		g->stack = saved;
		break;
	case USDT_BAD:
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	cg_norm(g, R0, t);
}
