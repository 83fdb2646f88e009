/* cg_expr.c - expressions: integers into r0, strings and tuples into
 * memory, conditions into jumps. */
#include "bpf/cg_int.h"

#include <string.h>
#include <strings.h>

#include "base/arch.h"
#include "catalog/elfsym.h"
#include "lang/dprobe.h"
#include "lang/lex.h"

/* Bring REG, holding some 64-bit value, to canonical form for T. */
void cg_norm(struct cg *g, int reg, const struct type *t)
{
	int sh;

	if (t->kind != TY_INT || t->size >= 8)
		return;
	if (!t->is_signed && t->size == 4) {
		cg_emit(g, ALU32_REG(BPF_MOV, reg, reg));	/* zero-extends */
		return;
	}
	sh = 64 - t->size * 8;
	cg_emit(g, ALU64_IMM(BPF_LSH, reg, sh));
	cg_emit(g, ALU64_IMM(t->is_signed ? BPF_ARSH : BPF_RSH, reg, sh));
}

/* Expressions whose value can be loaded into any register without a
 * helper call or scratch registers. */
static bool simple(const struct node *n)
{
	return n->is_const ||
	       (n->kind == N_VAR && n->var && !n->var->in_scratch);
}

static void load_simple(struct cg *g, int reg, struct node *n)
{
	if (n->is_const)
		cg_imm(g, reg, n->cval);
	else
		cg_emit(g, LDX(BPF_DW, reg, g->var_base, (int16_t)n->var->slot));
}

/* Convert the canonical value in REG from type FROM to type TO.  Only
 * a signed value meeting a narrower-than-64-bit unsigned type changes
 * bits: (uint32)x == (int32)-7 compares 0xfffffff9 with 0xfffffff9. */
static void conv(struct cg *g, int reg, const struct type *from,
		 const struct type *to)
{
	if (to->kind == TY_INT && to->size < 8 && from->kind == TY_INT &&
	    from->is_signed != to->is_signed)
		cg_norm(g, reg, to);
}

/* Evaluate A into r0 and B into r1. */
static void two(struct cg *g, struct node *a, struct node *b)
{
	if (simple(b)) {
		cg_int(g, a);
		load_simple(g, R1, b);
	} else if (simple(a)) {
		cg_int(g, b);
		cg_emit(g, MOV_REG(R1, R0));
		load_simple(g, R0, a);
	} else {
		int saved = g->stack;
		int slot = cg_stack_alloc(g, a);

		cg_int(g, a);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)slot, R0));
		cg_int(g, b);
		cg_emit(g, MOV_REG(R1, R0));
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)slot));
		g->stack = saved;
	}
}

/* r0 = |r0| (as unsigned), r2 = 1 if it was negative. */
static void absval(struct cg *g, int reg, int flag)
{
	int pos = cg_label(g);

	cg_emit(g, MOV_IMM(flag, 0));
	cg_jump(g, JMP_IMM(BPF_JSGE, reg, 0), pos);
	cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, (uint8_t)reg, 0, 0, 0));
	cg_emit(g, MOV_IMM(flag, 1));
	cg_bind(g, pos);
}

/* r0 = r0 / r1 or r0 % r1, defined as 0 when r1 is 0 (0.17's dialect;
 * today's bpftrace takes 1 and warns at run time; D faults).  Signed
 * division goes through the magnitudes, so it does not need BPF's
 * sdiv (v4). */
static void divmod(struct cg *g, bool is_mod, bool is_signed,
		   const struct node *b)
{
	int nz = cg_label(g), done = cg_label(g);
	bool nonzero = b->is_const && b->cval != 0;
	bool positive = b->is_const && b->cval > 0;

	/* A constant divisor needs no zero test, a positive one no sign;
	 * in D, a zero one is a fault. */
	if (!nonzero) {
		cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), nz);
		if (g->faults) {
			cg_emit(g, ST_IMM(BPF_DW, RFP,
					  (int16_t)(g->fault_slot + 8), 0));
			cg_fault(g, DFLT_DIVZERO);
		} else if (!g->c->dialect_017 && !g->c->lang_d) {
			cg_emit(g, MOV_IMM(R0, -1));	/* "failed": report */
			cg_report_helper(g, CG_DIVZERO, (struct node *)b);
			cg_emit(g, MOV_IMM(R0, 1));
			cg_jump(g, JA(), done);
		} else {
			cg_emit(g, MOV_IMM(R0, 0));
			cg_jump(g, JA(), done);
		}
	}
	cg_bind(g, nz);
	/* An immediate divisor spares the kernel patching in a zero test:
	 * each patch moves the whole program (quadratic in long bodies). */
	if (positive && b->cval <= INT32_MAX) {
		int op = is_mod ? BPF_MOD : BPF_DIV;

		if (is_signed)
			absval(g, R0, R2);
		cg_emit(g, ALU64_IMM(op, R0, (int32_t)b->cval));
		if (is_signed) {
			int keep = cg_label(g);

			cg_jump(g, JMP_IMM(BPF_JEQ, R2, 0), keep);
			cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, R0, 0, 0, 0));
			cg_bind(g, keep);
		}
	} else if (!is_signed) {
		cg_emit(g, ALU64_REG(is_mod ? BPF_MOD : BPF_DIV, R0, R1));
	} else {
		int keep = cg_label(g);

		absval(g, R0, R2);
		if (positive)
			cg_emit(g, MOV_IMM(R3, 0));
		else
			absval(g, R1, R3);
		cg_emit(g, ALU64_REG(is_mod ? BPF_MOD : BPF_DIV, R0, R1));
		/* quotient negative if signs differ; remainder follows the
		 * dividend (in D, as dtrace-utils computes it, the quotient's
		 * sign: 19 % -5 is -4) */
		if (!is_mod || g->c->lang_d)
			cg_emit(g, ALU64_REG(BPF_XOR, R2, R3));
		cg_jump(g, JMP_IMM(BPF_JEQ, R2, 0), keep);
		cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, R0, 0, 0, 0));
		cg_bind(g, keep);
	}
	cg_bind(g, done);
}

static int cmp_op(int tok, bool is_signed)
{
	switch (tok) {
	case T_EQ: return BPF_JEQ;
	case T_NE: return BPF_JNE;
	case T_LT: return is_signed ? BPF_JSLT : BPF_JLT;
	case T_LE: return is_signed ? BPF_JSLE : BPF_JLE;
	case T_GT: return is_signed ? BPF_JSGT : BPF_JGT;
	default: return is_signed ? BPF_JSGE : BPF_JGE;
	}
}

static int invert(int jop)
{
	switch (jop) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JLT: return BPF_JGE;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGT: return BPF_JLE;
	case BPF_JSLT: return BPF_JSGE;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLE: return BPF_JSGT;
	default: return BPF_JSLE;	/* JSGT */
	}
}

/* A constant operand converted to the comparison's type, as the
 * register operand will be. */
static int64_t cmp_const(const struct node *b, const struct type *ct)
{
	uint64_t v = (uint64_t)b->cval;
	int sh;

	if (ct->size >= 8 || !b->ty->is_signed || ct->is_signed)
		return b->cval;
	sh = 64 - ct->size * 8;
	return (int64_t)((v << sh) >> sh);
}

static bool is_cmp(int op)
{
	return op == T_EQ || op == T_NE || op == T_LT || op == T_LE ||
	       op == T_GT || op == T_GE;
}

/* Jump to LABEL when "the first LIMIT bytes of strings A and B are
 * equal" is WHEN (LIMIT < 0: all of them).  Strings are zero-padded, so
 * whole words compare, up to the shorter slot: it holds the shorter
 * string's NUL.  A last partial word keeps its first bytes, the low
 * ones on a little-endian machine, by shifting out the rest. */
static void words_branch(struct cg *g, struct mem ma, struct mem mb, int n,
			 int label, bool when)
{
	int ne = when ? cg_label(g) : label;

	for (int i = 0; i < n; i += 8) {
		cg_emit(g, LDX(BPF_DW, R1, ma.base, (int16_t)(ma.off + i)));
		cg_emit(g, LDX(BPF_DW, R2, mb.base, (int16_t)(mb.off + i)));
		if (n - i < 8) {
			cg_emit(g, ALU64_IMM(BPF_LSH, R1, 8 * (8 - (n - i))));
			cg_emit(g, ALU64_IMM(BPF_LSH, R2, 8 * (8 - (n - i))));
		}
		cg_jump(g, JMP_REG(BPF_JNE, R1, R2), ne);
	}
	if (when) {
		cg_jump(g, JA(), label);
		cg_bind(g, ne);
	}
}

/* D's string ordering: A OP B (OP < <= > >=) on N bytes, as strcmp()
 * orders them: each word byte-swapped to big-endian, so that its first
 * byte weighs most, then compared unsigned; the first word that
 * differs decides (zero-padded strings end in equal zero words). */
static void order_branch(struct cg *g, struct mem ma, struct mem mb, int n,
			 int op, int label, bool when)
{
	int decide = cg_label(g), out = cg_label(g);
	bool le = op == T_LE || op == T_GE;

	for (int i = 0; i < n; i += 8) {
		cg_emit(g, LDX(BPF_DW, R1, ma.base, (int16_t)(ma.off + i)));
		cg_emit(g, LDX(BPF_DW, R2, mb.base, (int16_t)(mb.off + i)));
		cg_emit(g, bpf_i(BPF_ALU | BPF_END | BPF_TO_BE, R1, 0, 0, 64));
		cg_emit(g, bpf_i(BPF_ALU | BPF_END | BPF_TO_BE, R2, 0, 0, 64));
		if (n - i < 8) {
			cg_emit(g, ALU64_IMM(BPF_RSH, R1, 8 * (8 - (n - i))));
			cg_emit(g, ALU64_IMM(BPF_RSH, R2, 8 * (8 - (n - i))));
		}
		cg_jump(g, JMP_REG(BPF_JNE, R1, R2), decide);
	}
	/* equal: true for <= and >= */
	if (le == when)
		cg_jump(g, JA(), label);
	else
		cg_jump(g, JA(), out);
	cg_bind(g, decide);
	/* R1 != R2: a < b is R1 < R2 */
	if (op == T_LT || op == T_LE)
		cg_jump(g, JMP_REG(when ? BPF_JLT : BPF_JGT, R1, R2), label);
	else
		cg_jump(g, JMP_REG(when ? BPF_JGT : BPF_JLT, R1, R2), label);
	cg_bind(g, out);
}

/* Strings (buffers, arrays) A OP B, on their first LIMIT bytes at most
 * (-1: all): jump to LABEL when that is WHEN. */
static void str_branch(struct cg *g, struct node *a, struct node *b,
		       int op, int64_t limit, int label, bool when)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem ma = cg_addr(g, a), mb = cg_addr(g, b);
	int n = ty_slot_size(a->ty) < ty_slot_size(b->ty) ?
		ty_slot_size(a->ty) : ty_slot_size(b->ty);

	if (limit >= 0 && limit < n)
		n = (int)limit;
	if (op == T_EQ || op == T_NE)
		words_branch(g, ma, mb, n, label, (op == T_EQ) == when);
	else
		order_branch(g, ma, mb, n, op, label, when);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* Tuples A == B: both stored as type T (zeroed, then each element
 * converted), then their bytes compared. */
static void tuple_branch(struct cg *g, struct node *a, struct node *b,
			 const struct type *t, int label, bool when)
{
	int saved = g->scratch, saved_stack = g->stack, size = ty_slot_size(t);
	struct mem ma = cg_tmp_alloc(g, size, a), mb;

	cg_zero(g, ma, 0, size);
	cg_store(g, a, ma, t);
	mb = cg_tmp_alloc(g, size, b);
	cg_zero(g, mb, 0, size);
	cg_store(g, b, mb, t);
	words_branch(g, ma, mb, size, label, when);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_branch(struct cg *g, struct node *n, int label, bool when)
{
	if (n->is_const) {
		if ((n->cval != 0) == when)
			cg_jump(g, JA(), label);
		return;
	}
	switch (n->kind) {
	case N_LAND: case N_LOR: {
		/* "a && b" is true only if both are; jump out early. */
		bool and = n->kind == N_LAND;

		if (and != when) {
			cg_branch(g, n->a, label, when);
			cg_branch(g, n->b, label, when);
		} else {
			int skip = cg_label(g);

			cg_branch(g, n->a, skip, !when);
			cg_branch(g, n->b, label, when);
			cg_bind(g, skip);
		}
		return;
	}
	case N_UNOP:
		if (n->op == T_BANG) {
			cg_branch(g, n->a, label, !when);
			return;
		}
		break;
	case N_BINOP:
		if (!is_cmp(n->op))
			break;
		/* a buffer is {length, bytes}, zero-padded: equal buffers
		 * have equal words as strings do */
		if (n->a->ty->kind == TY_STR || n->a->ty->kind == TY_BUF ||
		    n->a->ty->kind == TY_ARRAY) {
			str_branch(g, n->a, n->b, n->op, -1, label, when);
			return;
		} else if (n->a->ty->kind == TY_TUPLE) {
			tuple_branch(g, n->a, n->b, n->extra, label,
				     (n->op == T_EQ) == when);
			return;
		} else {
			struct type *ct = ty_arith(n->a->ty, n->b->ty);
			int op = cmp_op(n->op, ct->is_signed);
			int64_t bv = n->b->is_const ? cmp_const(n->b, ct) : 0;

			if (!when)
				op = invert(op);
			if (n->b->is_const && bv >= INT32_MIN && bv <= INT32_MAX) {
				cg_int(g, n->a);
				conv(g, R0, n->a->ty, ct);
				cg_jump(g, JMP_IMM(op, R0, (int32_t)bv), label);
			} else {
				two(g, n->a, n->b);
				conv(g, R0, n->a->ty, ct);
				conv(g, R1, n->b->ty, ct);
				cg_jump(g, JMP_REG(op, R0, R1), label);
			}
			return;
		}
	default:
		break;
	}
	cg_int(g, n);
	cg_jump(g, JMP_IMM(when ? BPF_JNE : BPF_JEQ, R0, 0), label);
}

/* r0 = 0 or 1 from a condition. */
static void bool_value(struct cg *g, struct node *n)
{
	int t = cg_label(g), done = cg_label(g);

	cg_branch(g, n, t, true);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_jump(g, JA(), done);
	cg_bind(g, t);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_bind(g, done);
}

static void binop(struct cg *g, struct node *n)
{
	const struct type *t = n->ty;
	int alu;

	if (is_cmp(n->op)) {
		bool_value(g, n);
		return;
	}
	if ((n->op == T_SHL || n->op == T_SHR) && n->b->is_const) {
		cg_int(g, n->a);
		conv(g, R0, n->a->ty, t);
		cg_emit(g, ALU64_IMM(n->op == T_SHL ? BPF_LSH :
				     t->is_signed ? BPF_ARSH : BPF_RSH,
				     R0, (int32_t)(n->b->cval & 63)));
		cg_norm(g, R0, t);
		return;
	}
	two(g, n->a, n->b);
	if (t->kind == TY_PTR) {
		/* p + n moves by n of what p points to */
		int reg = n->a->ty->kind == TY_PTR ? R1 : R0;

		if (t->pointee->size != 1)
			cg_emit(g, ALU64_IMM(BPF_MUL, reg, t->pointee->size));
	} else if (n->op != T_SHL && n->op != T_SHR) {
		conv(g, R0, n->a->ty, t);
		conv(g, R1, n->b->ty, t);
	} else {
		conv(g, R0, n->a->ty, t);
	}
	switch (n->op) {
	case T_PLUS: alu = BPF_ADD; break;
	case T_MINUS: alu = BPF_SUB; break;
	case T_STAR: alu = BPF_MUL; break;
	case T_AMP: alu = BPF_AND; break;
	case T_PIPE: alu = BPF_OR; break;
	case T_CARET: alu = BPF_XOR; break;
	case T_SHL: case T_SHR:
		cg_emit(g, ALU64_IMM(BPF_AND, R1, 63));
		alu = n->op == T_SHL ? BPF_LSH : t->is_signed ? BPF_ARSH : BPF_RSH;
		break;
	case T_SLASH: case T_PERCENT:
		/* 32-bit unsigned operands are canonical, so a 64-bit unsigned
		 * division gives the 32-bit result. */
		divmod(g, n->op == T_PERCENT, t->is_signed, n->b);
		cg_norm(g, R0, t);
		return;
	default:
		alu = BPF_ADD;
	}
	cg_emit(g, ALU64_REG(alu, R0, R1));
	cg_norm(g, R0, t);
}

static void int_var(struct cg *g, struct node *n)
{
	cg_emit(g, LDX(BPF_DW, R0, cg_var_reg(g, n->var),
		       (int16_t)n->var->slot));
}

static void int_builtin(struct cg *g, struct node *n)
{
	if (n->builtin == B_ARG)
		cg_arg(g, n);
	else if (n->builtin == B_SARG)
		cg_sarg(g, n);
	else if (n->builtin == B_CTX)
		cg_ctx(g);
	else
		cg_builtin(g, n);
}

/* r0 = the address of X, a member or constant element of a global D
 * variable held in a map (sema_dvar.c): the map value's address plus
 * X's offset in it; 0 when the map has no room for the value. */
static void global_addr(struct cg *g, struct node *x)
{
	int off = 0, done = cg_label(g);

	for (; x->kind != N_MAP; x = x->a)
		off += x->kind == N_FIELD ? x->foff :
		       (int)x->b->cval * x->ty->size;
	cg_map_addr(g, x);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	if (off)
		cg_emit(g, ALU64_IMM(BPF_ADD, R0, off));
	cg_bind(g, done);
}

/* r0 = ERROR's argument K of the fault at fault_slot (sema_dfault.c):
 * 1 the probe ID, 2 the action, 3 -1, 4 the fault, 5 the address. */
static void fault_arg(struct cg *g, int k)
{
	switch (k) {
	case 1:
		cg_emit(g, MOV_IMM(R0, cg_probe_id(g)));
		break;
	case 2: case 4:
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)g->fault_slot));
		cg_emit(g, ALU64_IMM(k == 2 ? BPF_RSH : BPF_AND, R0,
				     k == 2 ? 8 : 0xff));
		break;
	case 3:
		cg_emit(g, MOV_IMM(R0, -1));
		break;
	case 5:
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)(g->fault_slot + 8)));
		break;
	default:
		cg_emit(g, MOV_IMM(R0, 0));
	}
}

int cg_probe_id(const struct cg *g)
{
	/* BEGIN 1, END 2, a tracepoint its id, others 3 */
	return g->ps->tp_id ? g->ps->tp_id :
	       !strcasecmp(g->ps->name, "BEGIN") ? 1 :
	       !strcasecmp(g->ps->name, "END") ? 2 : 3;
}

static void int_unop(struct cg *g, struct node *n)
{
	int z;

	if (n->op == T_STAR) {
		cg_deref(g, n);
		return;
	}
	if (cg_dscratch_int(g, n))	/* &p[i], &p->m */
		return;
	if (n->op == T_AMP && n->a->kind != N_VAR) {
		global_addr(g, n->a);
		return;
	}
	if (n->op == T_AMP) {	/* &$x: its slot's address */
		struct mem m = { n->a->var->in_scratch ? RSCR : RFP,
				 n->a->var->slot };

		cg_addr_of(g, R0, m);
		return;
	}
	cg_int(g, n->a);
	switch (n->op) {
	case T_MINUS:
		cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, R0, 0, 0, 0));
		break;
	case T_TILDE:
		cg_emit(g, ALU64_IMM(BPF_XOR, R0, -1));
		break;
	case T_BANG:
		z = cg_label(g);
		cg_emit(g, MOV_REG(R1, R0));
		cg_emit(g, MOV_IMM(R0, 1));
		cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), z);
		cg_emit(g, MOV_IMM(R0, 0));
		cg_bind(g, z);
		break;
	default:
		break;
	}
	cg_norm(g, R0, n->ty);
}

static void int_ternary(struct cg *g, struct node *n)
{
	int lelse = cg_label(g), lend = cg_label(g);

	cg_branch(g, n->a, lelse, false);
	cg_int(g, n->b);
	cg_jump(g, JA(), lend);
	cg_bind(g, lelse);
	cg_int(g, n->c);
	cg_bind(g, lend);
	cg_norm(g, R0, n->ty);
}

/* a ?: b, a evaluated once. */
static void int_elvis(struct cg *g, struct node *n)
{
	int end = cg_label(g);

	cg_int(g, n->a);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), end);
	cg_int(g, n->b);
	cg_bind(g, end);
	cg_norm(g, R0, n->ty);
}

/* { statements; value } */
static void int_block(struct cg *g, struct node *n)
{
	cg_block_stmts(g, n);
	cg_int(g, n->args[n->nargs - 1]);
}

/* $x++ and friends: r0 is the value before (postfix) or after. */
static void int_incdec(struct cg *g, struct node *n)
{
	struct var *v = n->a->var;
	int base;

	if (n->a->kind == N_MAP) {
		cg_map_incdec(g, n);
		return;
	}
	base = cg_var_reg(g, v);
	cg_emit(g, LDX(BPF_DW, R1, base, (int16_t)v->slot));
	cg_emit(g, MOV_REG(R0, R1));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, n->op == T_INC ? ty_step(v->ty) :
			     -ty_step(v->ty)));
	cg_norm(g, R1, v->ty);
	cg_emit(g, STX(BPF_DW, base, (int16_t)v->slot, R1));
	if (n->prefix)
		cg_emit(g, MOV_REG(R0, R1));
}

static void int_cast(struct cg *g, struct node *n)
{
	if (n->op == 4) {	/* (uint64)array: its bytes */
		int saved = g->scratch, saved_stack = g->stack;
		struct mem m = cg_addr(g, n->a);

		cg_emit(g, LDX(cg_size_code(n->ty->size), R0, m.base,
			       (int16_t)m.off));
		g->scratch = saved;
		g->stack = saved_stack;
		cg_norm(g, R0, n->ty);
		return;
	}
	if (n->op == 2) {	/* (bool)"str": its first byte is not NUL */
		int saved = g->scratch, saved_stack = g->stack;
		struct mem m = cg_addr(g, n->a);

		cg_emit(g, LDX(BPF_B, R0, m.base, (int16_t)m.off));
		g->scratch = saved;
		g->stack = saved_stack;
	} else {
		cg_int(g, n->a);
	}
	if (n->op == 1 || n->op == 2) {	/* (bool)x is x != 0 */
		int z = cg_label(g);

		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), z);
		cg_emit(g, MOV_IMM(R0, 1));
		cg_bind(g, z);
		return;
	}
	cg_norm(g, R0, n->ty);
}

/* args.NAME, a kernel struct's member, or a tuple's element. */
static void int_field(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem m;

	if (n->builtin == B_ARGS_FIELD) {
		cg_args_int(g, n);
		return;
	}
	if (n->builtin == B_BTF_FIELD) {
		cg_btf_int(g, n);
		return;
	}
	m = cg_addr(g, n->a);
	cg_tuple_elem_int(g, m, n->a->ty, (int)n->ival);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* uaddr("sym"): a constant, or in a PIE the load base (ip minus the
 * probe's address in the file) plus the symbol's address. */
static void int_uaddr(struct cg *g, struct node *n)
{
	uint64_t v = 0;
	bool pie = false;

	elf_symbol(g->ps->path, n->args[0]->name, &v, &pie, NULL);
	if (!pie) {
		cg_imm(g, R0, (int64_t)v);
		return;
	}
	cg_reg(g, PT_REGS_IP);
	cg_imm(g, R1, (int64_t)(v - g->ps->uvaddr));
	cg_emit(g, ALU64_REG(BPF_ADD, R0, R1));
}

static void int_strncmp(struct cg *g, struct node *n)
{
	int ne = cg_label(g), done = cg_label(g);

	str_branch(g, n->args[0], n->args[1], T_EQ, n->args[2]->cval, ne,
		   false);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_jump(g, JA(), done);
	cg_bind(g, ne);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_bind(g, done);
}

static void int_bswap(struct cg *g, struct node *n)
{
	cg_int(g, n->args[0]);
	if (n->ty->size == 1) {
		if (n->args[0]->ty->is_signed)
			cg_norm(g, R0, n->ty);
	} else {	/* to big-endian: a swap on this machine */
		cg_emit(g, bpf_i(BPF_ALU | BPF_END | BPF_TO_BE, R0, 0, 0,
				 n->ty->size * 8));
	}
}

/* The calls that have an integer value. */
static void int_call(struct cg *g, struct node *n)
{
	switch (n->builtin) {
	case F_STRERROR: case F_KPTR: case F_UPTR:
	case F_SIGNAL_NAME: case F_SYSCALL_NAME:
		cg_int(g, n->args[0]);
		break;
	case F_UADDR:
		int_uaddr(g, n);
		break;
	case F_REG:
		cg_reg(g, pt_regs_offset(n->args[0]->name));
		break;
	case F_KSYM:
		cg_int(g, n->args[0]);
		break;
	case F_STRNCMP:
		int_strncmp(g, n);
		break;
	case F_BSWAP:
		int_bswap(g, n);
		break;
	case F_STRCONTAINS:
		cg_strcontains(g, n);
		break;
	case F_HAS_KEY:
		cg_map_has_key(g, n->args[0]);
		break;
	case F_DELETE:
		cg_map_delete_call(g, n);
		break;
	case F_SKBOUTPUT:
		cg_skboutput(g, n);
		break;
	case F_KSTACK: case F_USTACK: case F_DW_USTACK:
		cg_kstack(g, n);
		break;
	case F_SPECULATION:
		cg_speculation(g, n);
		break;
	case F_DFAULT:
		fault_arg(g, (int)n->args[0]->cval);
		break;
	default:
		if (!cg_call26_int(g, n) && !cg_dstr_int(g, n) &&
		    !cg_dscratch_int(g, n))
			cg_emit(g, MOV_IMM(R0, 0));
	}
}

/* The kinds of ast.def with an integer value, each with its code. */
static void (*const int_fns[N_NKINDS])(struct cg *, struct node *) = {
	[N_VAR] = int_var,
	[N_MAP] = cg_map_read_int,
	[N_BUILTIN] = int_builtin,
	[N_BINOP] = binop,
	[N_LAND] = bool_value,
	[N_LOR] = bool_value,
	[N_UNOP] = int_unop,
	[N_TERNARY] = int_ternary,
	[N_INCDEC] = int_incdec,
	[N_CAST] = int_cast,
	[N_FIELD] = int_field,
	[N_CALL] = int_call,
	[N_INDEX] = cg_index,
	[N_ELVIS] = int_elvis,
	[N_BLOCKEXPR] = int_block,
};

void cg_int(struct cg *g, struct node *n)
{
	if (n->kind == N_BLOCKEXPR) {
		cg_block_stmts(g, n);
		cg_int(g, BLOCKEXPR_VALUE(n));
	} else if (n->is_const)
		cg_imm(g, R0, n->cval);
	else if ((unsigned)n->kind < N_NKINDS && int_fns[n->kind])
		int_fns[n->kind](g, n);
	else
		cg_emit(g, MOV_IMM(R0, 0));
}

/* Store LEN bytes of S as a zero-padded string in DST (slot of DT). */
void cg_literal(struct cg *g, struct mem dst, const struct type *dt,
		const char *s, size_t len)
{
	int size = dt->size, slot = ty_slot_size(dt);

	if ((int)len > size - 1)
		len = (size_t)(size - 1);
	for (int i = 0; i < slot; i += 4) {
		uint32_t w = 0;

		for (int k = 0; k < 4; k++)
			if ((size_t)(i + k) < len)
				w |= (uint32_t)(unsigned char)s[i + k] << (8 * k);
		cg_emit(g, ST_IMM(BPF_W, dst.base, (int16_t)(dst.off + i),
				  (int32_t)w));
	}
}

void cg_copy(struct cg *g, struct mem dst, const struct type *dt,
	     struct mem src, const struct type *st)
{
	switch (dt->kind) {
	case TY_INT: case TY_PTR: case TY_KSTACK: case TY_KSYM:
	case TY_USERNAME: case TY_STRERROR:
		cg_emit(g, LDX(BPF_DW, R1, src.base, (int16_t)src.off));
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R1));
		return;
	case TY_STR: {
		int dslot = ty_slot_size(dt), sslot = ty_slot_size(st);
		int n = dslot < sslot ? dslot : sslot;

		/* a char[N] member of a struct value holds just N bytes */
		if (src.off % 8 && n > st->size)
			n = st->size;
		cg_move(g, dst, src, n);
		if (st->size > dt->size)	/* truncated: terminate */
			cg_zero(g, dst, dt->size - 1, dslot);
		else
			cg_zero(g, dst, n, dslot);
		return;
	}
	case TY_USYM: case TY_INET: case TY_MAC: case TY_TSTAMP: case TY_CGPATH:
		cg_move(g, dst, src, ty_slot_size(dt));
		return;
	case TY_ARRAY: case TY_STRUCT:
		/* exactly its bytes (a member of a struct value may be
		 * followed by others), then a zeroed tail */
		cg_move(g, dst, src, dt->size);
		cg_zero(g, dst, dt->size, ty_slot_size(dt));
		return;
	case TY_BUF: {		/* into the same or a larger buffer */
		int dslot = ty_slot_size(dt), sslot = ty_slot_size(st);
		int n = dslot < sslot ? dslot : sslot;

		for (int i = 0; i < n; i += 8) {
			cg_emit(g, LDX(BPF_DW, R1, src.base, (int16_t)(src.off + i)));
			cg_emit(g, STX(BPF_DW, dst.base, (int16_t)(dst.off + i), R1));
		}
		cg_zero(g, dst, n, dslot);
		return;
	}
	case TY_TUPLE:
		cg_tuple_copy(g, dst, dt, src, st);
		return;
	default:
		return;
	}
}

/* An array or struct value N read into DST where it comes from memory
 * sonde reads (a pointer's target, a tracepoint's field, a uprobe's
 * parameters) or from pton(); false for the other forms. */
static bool store_value(struct cg *g, struct node *n, struct mem dst)
{
	if (n->kind == N_CALL && n->builtin == F_PTON)
		cg_bytes_call(g, n, dst);
	else if (cg_in_target(n))
		cg_read_value(g, n, dst);
	else if (n->kind == N_FIELD && n->builtin == B_ARGS_FIELD)
		cg_args_array(g, n, dst);
	else if (n->kind == N_BUILTIN && n->builtin == B_ARGS)
		cg_uargs(g, n, dst);
	else
		return false;
	return true;
}

void cg_store(struct cg *g, struct node *n, struct mem dst,
	      const struct type *dt)
{
	if (n->kind == N_BLOCKEXPR) {
		cg_block_stmts(g, n);
		cg_store(g, BLOCKEXPR_VALUE(n), dst, dt);
		return;
	}
	/* a ?: of values in memory: each branch stored in its turn */
	if (n->kind == N_TERNARY && !ty_is_word(dt)) {
		int lelse = cg_label(g), lend = cg_label(g);

		cg_branch(g, n->a, lelse, false);
		cg_store(g, n->b, dst, dt);
		cg_jump(g, JA(), lend);
		cg_bind(g, lelse);
		cg_store(g, n->c, dst, dt);
		cg_bind(g, lend);
		return;
	}
	switch (dt->kind) {
	case TY_INT: case TY_PTR: case TY_KSTACK: case TY_KSYM:
	case TY_USERNAME: case TY_STRERROR:
		cg_int(g, n);
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
		return;
	case TY_TSTAMP:		/* {ns, the format's index} */
	case TY_CGPATH:		/* {id, the filter's index} */
		if (n->kind == N_CALL && (n->builtin == F_STRFTIME ||
					  n->builtin == F_CGROUP_PATH)) {
			cg_int(g, n->args[n->builtin == F_STRFTIME ? 1 : 0]);
			cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
			cg_emit(g, ST_IMM(BPF_DW, dst.base, (int16_t)(dst.off + 8),
					  (int32_t)n->ival));
			return;
		}
		break;
	case TY_TUPLE:
		if (n->kind == N_TUPLE) {
			cg_tuple_store(g, n, dst, dt);
			return;
		}
		break;
	case TY_ARRAY: case TY_STRUCT:
		if (store_value(g, n, dst))
			return;
		if (n->kind == N_CAST) {	/* (int8[8])x: x's bytes */
			cg_int(g, n->a);
			cg_emit(g, STX(cg_size_code(dt->size), dst.base,
				       (int16_t)dst.off, R0));
			cg_zero(g, dst, dt->size, ty_slot_size(dt));
			return;
		}
		break;
	case TY_USYM:
		if (n->kind == N_CALL && n->builtin == F_USYM) {
			cg_usym(g, n, dst);
			return;
		}
		break;
	case TY_INET: case TY_MAC: case TY_BUF:
		if (n->kind == N_CALL && (n->builtin == F_NTOP ||
		    n->builtin == F_MACADDR || n->builtin == F_BUF)) {
			if (dt->kind == TY_BUF && dt->size != n->ty->size) {
				/* a larger buffer variable or map value */
				int saved = g->scratch, saved_stack = g->stack;
				struct mem m = cg_tmp_alloc(g, ty_slot_size(n->ty), n);

				cg_bytes_call(g, n, m);
				cg_copy(g, dst, dt, m, n->ty);
				g->scratch = saved;
				g->stack = saved_stack;
				return;
			}
			cg_bytes_call(g, n, dst);
			return;
		}
		break;
	case TY_STR:
		switch (n->kind) {
		case N_STR: case N_POSITIONAL:
			cg_literal(g, dst, dt, n->name, n->len);
			return;
		case N_BUILTIN:
			if (cg_site_name(g, n, dst, dt))
				return;
			if (n->builtin == B_COMM && dt->size >= 16) {
				/* some kernels (6.1) leave the bytes after the
				 * NUL as they were: zero all of them */
				cg_zero(g, dst, 0, ty_slot_size(dt));
				cg_addr_of(g, R1, dst);
				cg_emit(g, MOV_IMM(R2, 16));
				cg_call(g, BPF_FUNC_get_current_comm);
				return;
			}
			break;
		case N_CALL:
			if (n->builtin == F_STR) {
				cg_str_call(g, n, dst, dt);
				return;
			}
			if (n->builtin == F_PATH) {
				cg_path(g, n, dst, dt);
				return;
			}
			if (cg_dstr_store(g, n, dst, dt))
				return;
			break;
		case N_MAP:
			cg_map_read(g, n, dst, dt);
			return;
		case N_FIELD:
			if (n->builtin == B_ARGS_FIELD) {
				cg_args_str(g, n, dst, dt);
				return;
			}
			if (n->builtin == B_BTF_FIELD) {
				cg_btf_str(g, n, dst, dt);
				return;
			}
			break;
		default:
			break;
		}
		break;
	default:
		return;
	}
	if (n->kind == N_MAP) {
		cg_map_read(g, n, dst, dt);
		return;
	}
	{
		int saved = g->scratch, saved_stack = g->stack;
		struct mem src = cg_addr(g, n);

		cg_copy(g, dst, dt, src, n->ty);
		g->scratch = saved;
		g->stack = saved_stack;
	}
}

/* $a[$i] of an array value in BPF's memory whose elements are structs
 * or arrays: the element copied out by a chain of comparisons (an
 * address computed from a variable into the stack would need a newer
 * verifier); zeros for an index outside the array. */
static struct mem index_copy(struct cg *g, struct node *n)
{
	struct mem m = cg_tmp_alloc(g, ty_slot_size(n->ty), n), base;
	int size = n->ty->size, done = cg_label(g);

	cg_zero(g, m, 0, ty_slot_size(n->ty));
	base = cg_addr(g, n->a);
	cg_int(g, n->b);
	for (int i = 0; i < n->a->ty->nelem; i++) {
		int next = cg_label(g);
		struct mem src = { base.base, base.off + i * size };

		cg_jump(g, JMP_IMM(BPF_JNE, R0, i), next);
		cg_move(g, m, src, size);
		cg_jump(g, JA(), done);
		cg_bind(g, next);
	}
	cg_bind(g, done);
	return m;
}

struct mem cg_addr(struct cg *g, struct node *n)
{
	struct mem m;

	if (n->kind == N_BLOCKEXPR) {
		cg_block_stmts(g, n);
		return cg_addr(g, BLOCKEXPR_VALUE(n));
	}

	if (n->kind == N_VAR) {
		m.base = cg_var_reg(g, n->var);
		m.off = n->var->slot;
		return m;
	}
	if (n->kind == N_BLOCKEXPR) {
		cg_block_stmts(g, n);
		return cg_addr(g, n->args[n->nargs - 1]);
	}
	if (n->kind == N_FIELD && n->builtin != B_ARGS_FIELD &&
	    n->builtin != B_BTF_FIELD) {
		m = cg_addr(g, n->a);
		return cg_tuple_elem_addr(g, m, n->a->ty, (int)n->ival, n);
	}
	/* a member or a constant element of a value in BPF's memory */
	if (n->kind == N_FIELD && n->builtin == B_BTF_FIELD && !n->fbits &&
	    !cg_in_target(n)) {
		m = cg_addr(g, n->a);
		m.off += n->foff;
		return m;
	}
	if (n->kind == N_INDEX && n->b->is_const && !cg_in_target(n)) {
		m = cg_addr(g, n->a);
		m.off += (int)n->b->cval * n->ty->size;
		return m;
	}
	if (n->kind == N_INDEX && !cg_in_target(n))
		return index_copy(g, n);
	m = cg_tmp_alloc(g, ty_slot_size(n->ty), n);
	cg_store(g, n, m, n->ty);
	return m;
}
