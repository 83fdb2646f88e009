/* cg_uarg.c - args.NAME of uprobes: a parameter of the probed function,
 * read where catalog/dwarf.c says it is at the function's entry, in
 * pieces: registers of pt_regs, the process's stack above the return
 * address (probe_read_user from sp + offset), a constant, or zeros for
 * a part DWARF says the compiler dropped.  An
 * integer or a pointer is one piece; a struct passed by value is one
 * or two registers of 8 bytes, or a copy on the stack. */
#include "bpf/cg_int.h"

#include <string.h>

#include "base/arch.h"
#include "catalog/dwarf.h"

/* The parameter N (an args.NAME node of a uprobe) names; sema found it
 * readable, at index foff. */
static const struct dwarf_param *param(struct cg *g, struct node *n)
{
	const struct dwarf_func *f;

	if (dwarf_func(g->c, g->ps->path, g->ps->func, g->ps->uvaddr, &f) ||
	    n->foff < 0 || n->foff >= f->nparams)
		return NULL;
	return &f->params[n->foff];
}

/* SIZE bytes at sp + OFF in the process into the stack slot SLOT
 * (zeroed first: a read that fails leaves 0). */
static void read_stack(struct cg *g, struct node *n, int slot, int64_t off,
		       int size)
{
	cg_reg(g, PT_REGS_SP);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, (int32_t)off));
	cg_emit(g, MOV_IMM(R2, size));
	cg_emit(g, MOV_REG(R1, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, slot));
	cg_read_call(g, BPF_FUNC_probe_read_user, n);
}

/* An integer or pointer parameter into r0, canonical for its type. */
void cg_uarg_int(struct cg *g, struct node *n)
{
	const struct dwarf_param *p = param(g, n);
	const struct dwarf_piece *pc = p && p->npieces == 1 ? &p->piece[0] : NULL;
	int saved = g->stack, slot;

	if (!pc) {
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	switch (pc->kind) {
	case DP_REG:
		cg_reg(g, pc->reg);
		break;
	case DP_CONST:
		cg_imm(g, R0, pc->off);
		break;
	case DP_NONE:
		cg_emit(g, MOV_IMM(R0, 0));
		break;
	case DP_STACK:
		slot = cg_stack_alloc(g, n);
		cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)slot, 0));
		read_stack(g, n, slot, pc->off, pc->size > 8 ? 8 : pc->size);
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)slot));
		g->stack = saved;
		break;
	}
	cg_norm(g, R0, n->ty);
}

/* The low SIZE bytes of REG at DST + OFF (a piece starts where C puts
 * a member, so each store is aligned). */
static void store_low(struct cg *g, struct mem dst, int off, int reg,
		      int size)
{
	while (size > 0) {
		int k = size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;

		cg_emit(g, STX(cg_size_code(k), dst.base, (int16_t)(dst.off + off), reg));
		if (k < size)
			cg_emit(g, ALU64_IMM(BPF_RSH, reg, 8 * k));
		off += k;
		size -= k;
	}
}

/* Parameter P's value into DST, piece after piece, at most MAX bytes
 * of it: a struct the script defines in place of the program's may be
 * smaller. */
static void pieces_into(struct cg *g, struct node *n,
			const struct dwarf_param *p, struct mem dst, int max)
{
	int off = 0;

	for (int i = 0; i < p->npieces && off < max; i++) {
		const struct dwarf_piece *pc = &p->piece[i];
		int size = pc->size < max - off ? pc->size : max - off;

		switch (pc->kind) {
		case DP_REG:
			cg_reg(g, pc->reg);
			store_low(g, dst, off, R0, size);
			break;
		case DP_CONST:
			cg_imm(g, R0, pc->off);
			store_low(g, dst, off, R0, size);
			break;
		case DP_NONE:	/* zeroed */
			break;
		case DP_STACK:
			cg_reg(g, PT_REGS_SP);
			cg_emit(g, MOV_REG(R3, R0));
			cg_emit(g, ALU64_IMM(BPF_ADD, R3, (int32_t)pc->off));
			cg_emit(g, MOV_IMM(R2, size));
			cg_addr_of(g, R1, (struct mem){ dst.base, dst.off + off });
			cg_read_call(g, BPF_FUNC_probe_read_user, n);
			break;
		}
		off += pc->size;
	}
}

/* A struct (or array) parameter passed by value into DST, its slot
 * zeroed past the value, so that equal values are equal map keys. */
void cg_uarg_value(struct cg *g, struct node *n, struct mem dst)
{
	const struct dwarf_param *p = param(g, n);

	cg_zero(g, dst, 0, ty_slot_size(n->ty));
	if (p)
		pieces_into(g, n, p, dst, n->ty->size);
}

/* args alone (B_ARGS): every parameter sema made a member of its struct
 * value, at the member's offset. */
void cg_uargs(struct cg *g, struct node *n, struct mem dst)
{
	const struct dwarf_func *f;

	cg_zero(g, dst, 0, ty_slot_size(n->ty));
	if (dwarf_func(g->c, g->ps->path, g->ps->func, g->ps->uvaddr, &f))
		return;
	for (int i = 0; i < n->ty->nmembers; i++) {
		const struct smember *m = &n->ty->members[i];

		for (int k = 0; k < f->nparams; k++)
			if (!strcmp(f->params[k].name, m->name))
				pieces_into(g, n, &f->params[k],
					    (struct mem){ dst.base,
							  dst.off + m->bitoff / 8 },
					    m->ty->size);
	}
}
