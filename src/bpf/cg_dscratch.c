/* cg_dscratch.c - D's scratch memory (docs/internals.md, "Scratch
 * memory").  The first c->dscratch bytes of each CPU's scratch value
 * are D's, sonde's own scratch after them (RSCR points past D's): a
 * word, the top (the bytes alloca() gave in this clause, reset by each
 * clause's prologue), then -x scratchsize bytes, then as many again
 * that nothing allocates (so that the verifier sees any copy of at
 * most scratchsize bytes at any allocated offset fit the value).  The
 * prologue also keeps the region's address as a number in a stack slot
 * (g->dbase_slot), so that addresses can be compared with it.  A store
 * through a pointer, bcopy()'s destination and a read of scratch memory
 * must lie within [region + 8, region + 8 + top): else the clause
 * faults (invalid address), as DTrace's does. */
#include <string.h>

#include "bpf/cg_int.h"
#include "lang/lex.h"
#include "sema/sema.h"

static int scratchsize(const struct cg *g)
{
	return (int)g->c->dt_scratchsize;
}

/* REG = the region's map-value pointer (its top word). */
static void region(struct cg *g, int reg)
{
	cg_emit(g, MOV_REG(reg, RSCR));
	cg_emit(g, ALU64_IMM(BPF_ADD, reg, -g->c->dscratch));
}

void cg_dscratch_prologue(struct cg *g, struct ir *pro)
{
	int slot = g->dbase_slot;

	ir_emit(pro, MOV_REG(R1, RSCR));
	ir_emit(pro, ALU64_IMM(BPF_ADD, R1, -g->c->dscratch));
	ir_emit(pro, ST_IMM(BPF_DW, R1, 0, 0));
	/* its address as a number: a pointer spilled is a pointer to the
	 * verifier, the bytes a helper writes there are a number */
	ir_emit(pro, STX(BPF_DW, RFP, (int16_t)slot, R1));
	ir_emit(pro, MOV_REG(R1, RFP));
	ir_emit(pro, ALU64_IMM(BPF_ADD, R1, slot));
	ir_emit(pro, MOV_IMM(R2, 8));
	ir_emit(pro, MOV_REG(R3, R1));
	ir_emit(pro, CALL(BPF_FUNC_probe_read_kernel));
}

/* A fault at the address in REG. */
static void fault_at(struct cg *g, int reg, int flt)
{
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)(g->fault_slot + 8), reg));
	cg_fault(g, flt);
}

/* r0 = the address of r0 bytes newly allocated, r2 their offset in
 * the region's allocated bytes (bounded for the verifier). */
static void alloc(struct cg *g)
{
	int ok = cg_label(g), fits = cg_label(g), bad = cg_label(g);

	cg_jump(g, JMP_IMM(BPF_JLE, R0, scratchsize(g)), ok);
	cg_bind(g, bad);
	cg_emit(g, MOV_IMM(R1, 0));
	fault_at(g, R1, DFLT_NOSCRATCH);
	cg_bind(g, ok);
	region(g, R1);
	cg_emit(g, LDX(BPF_DW, R2, R1, 0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 7));
	cg_emit(g, ALU64_IMM(BPF_AND, R2, -8));
	cg_emit(g, MOV_REG(R3, R2));
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R0));
	cg_jump(g, JMP_IMM(BPF_JLE, R3, scratchsize(g)), fits);
	cg_jump(g, JA(), bad);
	cg_bind(g, fits);
	cg_jump(g, JMP_IMM(BPF_JGT, R2, scratchsize(g)), bad);
	cg_emit(g, STX(BPF_DW, R1, 0, R3));
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)g->dbase_slot));
	cg_emit(g, ALU64_IMM(BPF_ADD, R0, 8));
	cg_emit(g, ALU64_REG(BPF_ADD, R0, R2));
}

void cg_dalloca(struct cg *g, struct node *n)
{
	cg_int(g, n->args[0]);
	alloc(g);
}

static void dcopyin(struct cg *g, struct node *n)
{
	int saved = g->stack, aslot = cg_stack_alloc(g, n);
	int nslot = cg_stack_alloc(g, n), rslot = cg_stack_alloc(g, n);
	int ok = cg_label(g);

	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)aslot, R0));
	cg_int(g, n->args[1]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)nslot, R0));
	alloc(g);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R0));
	region(g, R1);
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, 8));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)nslot));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_call(g, BPF_FUNC_probe_read_user);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), ok);
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)aslot));
	fault_at(g, R1, DFLT_BADADDR);
	cg_bind(g, ok);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)rslot));
	g->stack = saved;
}

/* r2 = the offset in the allocated bytes of the LEN bytes (LEN a
 * register, or -1 and SIZE) at the address in r0, which must lie within
 * them: else the clause faults at that address.  r0 is kept. */
static void check(struct cg *g, int len, int size)
{
	int in = cg_label(g), fits = cg_label(g), bad = cg_label(g);

	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)g->dbase_slot));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, 8));
	cg_emit(g, MOV_REG(R2, R0));
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R1));
	cg_jump(g, JMP_IMM(BPF_JLE, R2, scratchsize(g)), in);
	cg_bind(g, bad);
	fault_at(g, R0, DFLT_BADADDR);
	cg_bind(g, in);
	region(g, R4);
	cg_emit(g, LDX(BPF_DW, R4, R4, 0));
	cg_emit(g, MOV_REG(R5, R2));
	if (len >= 0)
		cg_emit(g, ALU64_REG(BPF_ADD, R5, len));
	else
		cg_emit(g, ALU64_IMM(BPF_ADD, R5, size));
	cg_jump(g, JMP_REG(BPF_JLE, R5, R4), fits);
	cg_jump(g, JA(), bad);
	cg_bind(g, fits);
}

void cg_dstore(struct cg *g, struct node *n)
{
	int saved = g->stack, vslot = cg_stack_alloc(g, n);
	int size = n->a->ty->size, done = cg_label(g);

	cg_assigned(g, n, n->a->ty);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)vslot, R0));
	cg_place_addr(g, n->a, done);
	check(g, -1, size);
	region(g, R3);
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, 8));
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R2));
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)vslot));
	cg_emit(g, STX(cg_size_code(size), R3, 0, R0));
	cg_bind(g, done);
	g->stack = saved;
}

/* bcopy(src, dest, len) and copyinto(src, len, dest): LEN bytes of
 * SRC (the kernel's, or the process's for copyinto) into DEST, scratch
 * alloca() gave; arguments evaluated in order, as DTrace does. */
void cg_dbcopy(struct cg *g, struct node *n)
{
	int saved = g->stack, saved_scratch = g->scratch;
	int sslot = cg_stack_alloc(g, n), dslot = cg_stack_alloc(g, n);
	int nslot = cg_stack_alloc(g, n), ok = cg_label(g);
	bool user = n->builtin == F_DCOPYINTO;
	struct node *src = n->args[0];

	if (src->ty->kind != TY_STR) {
		cg_int(g, src);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)sslot, R0));
	}
	if (user) {
		cg_int(g, n->args[1]);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)nslot, R0));
	}
	cg_int(g, n->args[user ? 2 : 1]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)dslot, R0));
	if (user)
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)nslot));
	else
		cg_int(g, n->args[2]);
	cg_jump(g, JMP_IMM(BPF_JLE, R0, scratchsize(g)), ok);
	cg_emit(g, MOV_IMM(R1, 0));
	fault_at(g, R1, DFLT_BADADDR);
	cg_bind(g, ok);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)nslot, R0));
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)dslot));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)nslot));
	check(g, R3, 0);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)dslot, R2));	/* its offset */
	if (src->ty->kind == TY_STR) {
		struct mem m = cg_addr(g, src);

		cg_addr_of(g, R3, m);
	} else {
		cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)sslot));
	}
	region(g, R1);
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, 8));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)dslot));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)nslot));
	cg_read_call(g, user ? BPF_FUNC_probe_read_user :
			       BPF_FUNC_probe_read_kernel, n);
	g->stack = saved;
	g->scratch = saved_scratch;
}

void cg_dscratch_load(struct cg *g, int size)
{
	int out = cg_label(g), bad = cg_label(g);

	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)g->dbase_slot));
	cg_emit(g, MOV_REG(R2, R0));
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R1));
	/* not in the region (below it, the difference is huge): a read
	 * as any other */
	cg_jump(g, JMP_IMM(BPF_JGE, R2, g->c->dscratch), out);
	region(g, R4);
	cg_emit(g, LDX(BPF_DW, R4, R4, 0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R4, 8));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, size));
	/* the top word, or past the allocated bytes */
	cg_jump(g, JMP_IMM(BPF_JLT, R2, 8 + size), bad);
	cg_jump(g, JMP_REG(BPF_JLE, R2, R4), out);
	cg_bind(g, bad);
	fault_at(g, R0, DFLT_BADADDR);
	cg_bind(g, out);
}

bool cg_dscratch_int(struct cg *g, struct node *n)
{
	int done;

	if (n->kind == N_CALL && n->builtin == F_DALLOCA) {
		cg_dalloca(g, n);
		return true;
	}
	if (n->kind == N_CALL && n->builtin == F_DCOPYIN) {
		dcopyin(g, n);
		return true;
	}
	if (n->kind != N_UNOP || n->op != T_AMP || !n->dname ||
	    strcmp(n->dname, "paddr"))
		return false;
	done = cg_label(g);	/* p's memory, as the pointer says */
	cg_place_addr(g, n->a, done);
	cg_bind(g, done);
	return true;
}
