/* cg_spec.c - D's speculations in BPF.  speculation() claims a free
 * slot of the stats map for a new tag, generation << 8 | id;
 * speculate(id) makes the clause's later records carry that tag in the
 * high half of their event id; commit(id) and discard(id) send the tag
 * to the runtime (run/spec.c), which kept those records, then free the
 * slot.  The generation tells a late record of an ended speculation
 * from one of the next speculation to get the same id.
 * docs/internals.md, "Speculations", has the design. */
#include "bpf/cg_int.h"

static int nspec(const struct cg *g)
{
	int n = g->c->dt_nspec > 0 ? g->c->dt_nspec : 1;

	return n > SPEC_MAX ? SPEC_MAX : n;
}

/* REG = the address of stats slot SLOT. */
static void stat_addr(struct cg *g, int reg, int slot)
{
	ir_ld64(&g->ir, reg, (uint64_t)(uint32_t)(slot * 8) << 32,
		RELOC_STATS, slot);
}

/* The stats slot of speculation I (0-based). */
static int spec_slot(const struct cg *g, int i)
{
	return STATS_SPEC(g->c) + 2 + i;
}

/* r0 an id: to OUT unless it is 1..nspec; then r1 = its slot's address
 * (r2 clobbered, r0 kept). */
static void id_slot_addr(struct cg *g, int out)
{
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), out);
	cg_jump(g, JMP_IMM(BPF_JGT, R0, nspec(g)), out);
	cg_emit(g, MOV_REG(R2, R0));
	cg_emit(g, ALU64_IMM(BPF_SUB, R2, 1));
	cg_emit(g, ALU64_IMM(BPF_LSH, R2, 3));
	stat_addr(g, R1, spec_slot(g, 0));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
}

/* speculation(): a new generation from the counter, then the first
 * slot a compare-and-exchange 0 -> tag claims; its id in r0, or 0 and
 * a count when all are taken.  The exchange makes two CPUs asking at
 * once get different ids. */
void cg_speculation(struct cg *g, struct node *n)
{
	int done = cg_label(g);

	(void)n;
	stat_addr(g, R1, STATS_SPEC(g->c) + 1);
	cg_emit(g, MOV_IMM(R3, 1));
	cg_emit(g, bpf_i(BPF_STX | BPF_ATOMIC | BPF_DW, R1, R3, 0,
			 BPF_ADD | BPF_FETCH));
	cg_emit(g, ALU64_IMM(BPF_AND, R3, 0xffffff));
	cg_emit(g, ALU64_IMM(BPF_LSH, R3, 8));
	for (int i = 0; i < nspec(g); i++) {
		int next = cg_label(g);

		stat_addr(g, R1, spec_slot(g, i));
		cg_emit(g, MOV_REG(R2, R3));
		cg_emit(g, ALU64_IMM(BPF_OR, R2, i + 1));
		cg_emit(g, MOV_IMM(R0, 0));
		cg_emit(g, bpf_i(BPF_STX | BPF_ATOMIC | BPF_DW, R1, R2, 0,
				 BPF_CMPXCHG));
		cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), next);
		cg_emit(g, MOV_IMM(R0, i + 1));
		cg_jump(g, JA(), done);
		cg_bind(g, next);
	}
	cg_count_stat(g, STATS_SPEC(g->c));
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
}

/* speculate(V) (lang/dlower.c made the id an int64 variable V): the
 * clause ends here unless V is an active speculation, as DTrace drops
 * what follows; else V becomes its tag, which the records sent after
 * it carry (cg_spec_tag). */
static void speculate(struct cg *g, struct node *n)
{
	struct var *v = n->args[0]->var;

	cg_int(g, n->args[0]);
	id_slot_addr(g, g->exit_label);
	cg_emit(g, LDX(BPF_DW, R1, R1, 0));
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), g->exit_label);
	cg_emit(g, STX(BPF_DW, cg_var_reg(g, v), (int16_t)v->slot, R1));
	g->spec = n->args[0];
}

/* commit(id), discard(id) of an active speculation: the record
 * {EVID_SPEC_COMMIT or _DISCARD, tag} first, then the slot freed if it
 * still holds that tag, so that the records of a speculation() reusing
 * the id come after the record in the ring buffer. */
static void end_spec(struct cg *g, struct node *n, uint64_t evid)
{
	int saved = g->scratch, saved_stack = g->stack;
	int skip = cg_label(g), sent = cg_label(g), valid = cg_label(g);
	struct mem rec = cg_tmp_alloc(g, 16, n);

	cg_int(g, n->args[0]);
	/* an id no speculation() can give is an illegal operation (a
	 * fault: the clause stops, ERROR runs); 0 does nothing */
	cg_jump(g, JMP_IMM(BPF_JLE, R0, nspec(g)), valid);
	cg_fault(g, DFLT_ILLOP);
	cg_bind(g, valid);
	id_slot_addr(g, skip);
	cg_emit(g, LDX(BPF_DW, R1, R1, 0));
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), skip);
	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off, (int32_t)evid));
	cg_emit(g, STX(BPF_DW, rec.base, (int16_t)(rec.off + 8), R1));
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	cg_addr_of(g, R2, rec);
	cg_emit(g, MOV_IMM(R3, 16));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), sent);
	cg_count_stat(g, STATS_LOST);
	cg_bind(g, sent);
	/* the id again from the tag, checked again: a record in scratch
	 * is a map value, whose bounds the verifier does not keep */
	cg_emit(g, LDX(BPF_DW, R0, rec.base, (int16_t)(rec.off + 8)));
	cg_emit(g, ALU64_IMM(BPF_AND, R0, 0xff));
	id_slot_addr(g, skip);
	cg_emit(g, LDX(BPF_DW, R0, rec.base, (int16_t)(rec.off + 8)));
	cg_emit(g, MOV_IMM(R2, 0));
	cg_emit(g, bpf_i(BPF_STX | BPF_ATOMIC | BPF_DW, R1, R2, 0,
			 BPF_CMPXCHG));
	cg_bind(g, skip);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_spec_stmt(struct cg *g, struct node *n)
{
	switch (n->builtin) {
	case F_SPECULATE:
		speculate(g, n);
		break;
	case F_COMMIT:
		end_spec(g, n, EVID_SPEC_COMMIT);
		break;
	case F_DISCARD:
		end_spec(g, n, EVID_SPEC_DISCARD);
		break;
	default:
		break;
	}
}

/* After speculate(): the record at REC carries the speculation's tag
 * in the high half of its event id.  Clobbers r0, r1. */
void cg_spec_tag(struct cg *g, struct mem rec)
{
	if (!g->spec)
		return;
	cg_int(g, g->spec);
	cg_emit(g, ALU64_IMM(BPF_LSH, R0, 32));
	cg_emit(g, LDX(BPF_DW, R1, rec.base, (int16_t)rec.off));
	cg_emit(g, ALU64_REG(BPF_OR, R1, R0));
	cg_emit(g, STX(BPF_DW, rec.base, (int16_t)rec.off, R1));
}
