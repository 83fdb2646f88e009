/* cg.c - one BPF program per attach point: the statements, then the
 * prologue they need, the program type the probe's kind asks for, and
 * the assembled result. */
#include "bpf/cg_int.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch.h"
#include "lang/lex.h"

/* The script line an instruction comes from, for --dump=bpf and the
 * verifier's report; 0 for code written in an included file. */
static int script_line(struct loc l)
{
	return l.file ? 0 : l.line;
}

static void stmt(struct cg *g, struct node *n);

void cg_stmt(struct cg *g, struct node *n)
{
	stmt(g, n);
}

void cg_block(struct cg *g, struct node *b)
{
	for (int i = 0; i < b->nargs && !g->ir.overflow; i++)
		stmt(g, b->args[i]);
}

/* The statements of a block expression, before its value. */
void cg_block_stmts(struct cg *g, struct node *n)
{
	for (int i = 0; i < n->nargs - 1 && !g->ir.overflow; i++)
		stmt(g, n->args[i]);
}

void cg_assigned(struct cg *g, struct node *n, const struct type *t)
{
	struct node bin;

	if (n->op == T_ASSIGN) {
		cg_int(g, n->b);
		return;
	}
	/* x op= e is x = x op e with x's type */
	memset(&bin, 0, sizeof(bin));
	bin.kind = N_BINOP;
	bin.loc = n->loc;
	bin.a = n->a;
	bin.b = n->b;
	bin.op = cg_binop_of(n->op);
	bin.ty = (bin.op == T_SHL || bin.op == T_SHR) ? ty_promote(t) :
		 t->kind == TY_PTR && ty_step(t) > 1 &&
		 (bin.op == T_PLUS || bin.op == T_MINUS) ? (struct type *)t :
		 ty_arith(t, n->b->ty);
	cg_int(g, &bin);
}

static void assign_var(struct cg *g, struct node *n)
{
	struct var *v = n->a->var;

	if (ty_is_word(v->ty)) {
		cg_assigned(g, n, v->ty);
		cg_norm(g, R0, v->ty);
		cg_emit(g, STX(BPF_DW, cg_var_reg(g, v),
			       (int16_t)v->slot, R0));
		return;
	}
	{
		struct mem dst = { cg_var_reg(g, v), v->slot };

		cg_store(g, n->b, dst, v->ty);
	}
}

/* A call without a value, or a '?:' choosing between such calls. */
static void void_expr(struct cg *g, struct node *e)
{
	int lelse, lend;

	if (e->kind != N_TERNARY) {
		cg_call_stmt(g, e);
		return;
	}
	lelse = cg_label(g);
	lend = cg_label(g);
	cg_branch(g, e->a, lelse, false);
	void_expr(g, e->b);
	cg_jump(g, JA(), lend);
	cg_bind(g, lelse);
	void_expr(g, e->c);
	cg_bind(g, lend);
}

/* for ($v : START..END): START and END once, then a counter on the
 * stack, compared with FOR_MAX_ITER so that the verifier sees the loop
 * end even when END is known only at run time; $v = START + counter
 * while that is below END (signed). */
static void for_range(struct cg *g, struct node *n)
{
	struct var *v = n->a->var;
	int start = cg_stack_alloc(g, n), end = cg_stack_alloc(g, n);
	int k = cg_stack_alloc(g, n);
	int top = cg_label(g), next = cg_label(g), out = cg_label(g);
	int obrk = g->brk, ocont = g->cont;

	cg_int(g, n->b->a);
	cg_norm(g, R0, ty_int(8, true));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)start, R0));
	cg_int(g, n->b->b);
	cg_norm(g, R0, ty_int(8, true));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)end, R0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)k, 0));
	cg_bind(g, top);
	g->ir.line = script_line(n->loc);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)k));
	cg_jump(g, JMP_IMM(BPF_JGE, R0, FOR_MAX_ITER), out);
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)start));
	cg_emit(g, ALU64_REG(BPF_ADD, R0, R1));
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)end));
	cg_jump(g, JMP_REG(BPF_JSGE, R0, R1), out);
	cg_emit(g, STX(BPF_DW, cg_var_reg(g, v), (int16_t)v->slot,
		       R0));
	g->brk = out;
	g->cont = next;
	cg_block(g, n->c);
	cg_bind(g, next);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)k));
	cg_emit(g, ALU64_IMM(BPF_ADD, R0, 1));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)k, R0));
	cg_jump(g, JA(), top);
	cg_bind(g, out);
	g->brk = obrk;
	g->cont = ocont;
}

/* return EXPR: a test probe's program returns EXPR (its verdict).  A
 * piece of a split body returns it as (EXPR << 1) | 1, since its 0
 * means "go on" and 1 "stop" (gen_split). */
static void ret_value(struct cg *g, struct node *e)
{
	cg_int(g, e);
	/* elsewhere the kernel reads the value (fentry and iter programs
	 * must return 0 or 1, a tracepoint's 1 submits a perf sample):
	 * computed, then a plain return */
	if (g->ps->ops->stage != STAGE_TEST) {
		cg_jump(g, JA(), g->exit_label);
		return;
	}
	if (g->piece) {
		cg_emit(g, ALU64_IMM(BPF_LSH, R0, 1));
		cg_emit(g, ALU64_IMM(BPF_OR, R0, 1));
	}
	cg_emit(g, EXIT());
}

/* Does N hold a return EXPR? */
static bool valued_return(const struct node *n)
{
	if (!n)
		return false;
	if (n->kind == N_RETURN && n->a)
		return true;
	if (valued_return(n->a) || valued_return(n->b) || valued_return(n->c))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (valued_return(n->args[i]))
			return true;
	return false;
}

/* let $x = value, or let $x, which sets it to zero (again in a loop). */
static void cg_let(struct cg *g, struct node *n)
{
	struct var *v = n->a->var;
	struct mem m = { v->in_scratch ? RSCR : RFP, v->slot };

	if (n->b)
		assign_var(g, n->b);
	else
		cg_zero(g, m, 0, ty_slot_size(v->ty));
}

static void stmt(struct cg *g, struct node *n)
{
	int saved_stack = g->stack, saved_scratch = g->scratch;

	g->ir.line = script_line(n->loc);
	switch (n->kind) {
	case N_EXPRSTMT: {
		struct node *e = n->a;

		if ((e->kind == N_CALL || e->kind == N_TERNARY) &&
		    e->ty->kind == TY_VOID)
			void_expr(g, e);
		else if (ty_is_word(e->ty))
			cg_int(g, e);
		else
			(void)cg_addr(g, e);
		break;
	}
	case N_ASSIGN:
		if (n->a->kind == N_VAR)
			assign_var(g, n);
		else if (n->dname && !strcmp(n->dname, "pstore"))
			cg_dstore(g, n);
		else if (n->a->kind == N_FIELD || n->a->kind == N_INDEX)
			cg_member_store(g, n);
		else if (n->b->kind == N_CALL && n->a->ty &&
			 n->a->ty->kind == TY_VOID)
			cg_agg(g, n);
		else
			cg_map_assign(g, n);
		break;
	case N_IF: {
		int lelse = cg_label(g), lend = cg_label(g);

		cg_branch(g, n->a, lelse, false);
		cg_block(g, n->b);
		if (n->c) {
			cg_jump(g, JA(), lend);
			cg_bind(g, lelse);
			cg_block(g, n->c);
		} else {
			cg_bind(g, lelse);
		}
		cg_bind(g, lend);
		break;
	}
	case N_WHILE: {
		int top = cg_label(g), end = cg_label(g);
		int obrk = g->brk, ocont = g->cont;

		cg_bind(g, top);
		g->ir.line = script_line(n->loc);
		cg_branch(g, n->a, end, false);
		g->brk = end;
		g->cont = top;
		cg_block(g, n->b);
		cg_jump(g, JA(), top);
		cg_bind(g, end);
		g->brk = obrk;
		g->cont = ocont;
		break;
	}
	case N_FOR:
		if (n->b->kind == N_MAP)
			cg_for_map(g, n);
		else
			for_range(g, n);
		break;
	case N_UNROLL:
		for (int64_t i = 0; i < n->a->cval && !g->ir.overflow; i++)
			cg_block(g, n->b);
		break;
	case N_RETURN:
		if (n->a)
			ret_value(g, n->a);
		else
			cg_jump(g, JA(), g->exit_label);
		break;
	case N_BREAK:
		cg_jump(g, JA(), g->brk);
		break;
	case N_CONTINUE:
		cg_jump(g, JA(), g->cont);
		break;
	case N_BLOCK:
		cg_block(g, n);
		break;
	case N_LET:
		cg_let(g, n);
		break;
	default:
		break;
	}
	g->stack = saved_stack;
	g->scratch = saved_scratch;
}

/* A program longer than SPLIT_INSNS instructions is compiled again as
 * pieces of about PIECE_INSNS, each a global subprogram the verifier
 * checks on its own (docs/internals.md, "Long bodies"). */
#define SPLIT_INSNS 4096
#define PIECE_INSNS 1024
#define MAX_PIECES 200
/* The verifier's limit of pending branches (BPF_COMPLEXITY_LIMIT_JMP_SEQ). */
#define MAX_BRANCHES 8192

/* Where a long body is cut: piece K holds the top-level statements
 * [cut[K], cut[K + 1]); cut[n] is the number of statements. */
struct split {
	int *cut;
	int n;
};

/* One variable's slot: on the stack while STACK_VARS has room (the
 * verifier tracks integers' values there, which loops need), else in
 * scratch. */
static void place_var(struct cg *g, struct var *v)
{
	int size = ty_slot_size(v->ty);

	if (g->stack + size <= STACK_VARS) {
		v->in_scratch = false;
		g->stack += size;
		if (g->stack > g->stack_max)
			g->stack_max = g->stack;
		v->slot = -(STACK_RESERVED + g->stack);
	} else {
		struct mem m = cg_scratch_alloc(g, size, NULL);

		v->in_scratch = true;
		v->slot = m.off;
	}
}

/* Slots for the probe's variables, fixed for the whole program; in a
 * split one, those of piece PIECE (-1: the ones pieces share, always in
 * scratch, the main program's). */
static void place_vars(struct cg *g, const struct split *sp, int piece)
{
	for (struct var *v = g->pi->vars; v; v = v->next) {
		if (sp && v->piece != piece)
			continue;
		if (sp && piece < 0) {
			struct mem m = cg_scratch_alloc(g, ty_slot_size(v->ty),
							NULL);

			v->in_scratch = true;
			v->slot = m.off;
		} else {
			place_var(g, v);
		}
	}
}

/* Variables start at zero: a variable assigned on one branch only is
 * still initialised when the verifier follows the other. */
static void init_vars(struct cg *g, struct ir *pro, const struct split *sp,
		      int piece)
{
	for (struct var *v = g->pi->vars; v; v = v->next) {
		int size = ty_slot_size(v->ty);

		if (sp && v->piece != piece)
			continue;
		for (int i = 0; i < size; i += 8)
			ir_emit(pro, ST_IMM(BPF_DW, cg_var_reg(g, v),
					    (int16_t)(v->slot + i), 0));
	}
}

/* Insert PRO at instruction AT of the body in g->ir, shifting every
 * label bound there or later but KEEP (-1: none), which stays on the
 * inserted code. */
void cg_insert(struct cg *g, int at, struct ir *pro, int keep)
{
	struct ir *ir = &g->ir;
	int k = pro->n;

	if (!k)
		return;
	while (ir->cap < ir->n + k) {
		ir->cap = ir->cap ? ir->cap * 2 : 256;
		ir->v = xrealloc(ir->v, sizeof(*ir->v) * (size_t)ir->cap);
	}
	memmove(ir->v + at + k, ir->v + at,
		sizeof(*ir->v) * (size_t)(ir->n - at));
	memcpy(ir->v + at, pro->v, sizeof(*ir->v) * (size_t)k);
	ir->n += k;
	for (int i = 0; i < ir->nlabels; i++)
		if (ir->label_at[i] >= at && i != keep)
			ir->label_at[i] += k;
}

/* Whether instructions [FROM, g->ir.n) name register R. */
bool cg_names_reg(struct cg *g, int from, int r)
{
	for (int i = from; i < g->ir.n; i++) {
		const struct bpf_insn *in = &g->ir.v[i].in;

		if (in->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			i++;
			continue;
		}
		if (in->dst_reg == r || in->src_reg == r)
			return true;
	}
	return false;
}

/* The scratch buffer into r9: a lookup of the per-CPU array's element
 * 0, to FAIL if it is missing (it never is). */
void cg_scratch_lookup(struct ir *pro, int fail, int shift)
{
	ir_emit(pro, ST_IMM(BPF_W, RFP, -4, 0));
	ir_ld64(pro, R1, 0, RELOC_SCRATCH_FD, 0);
	ir_emit(pro, MOV_REG(R2, RFP));
	ir_emit(pro, ALU64_IMM(BPF_ADD, R2, -4));
	ir_emit(pro, CALL(BPF_FUNC_map_lookup_elem));
	ir_jump(pro, JMP_IMM(BPF_JEQ, R0, 0), fail);
	ir_emit(pro, MOV_REG(RSCR, R0));
	if (shift)	/* D's scratch comes first (cg_dscratch.c) */
		ir_emit(pro, ALU64_IMM(BPF_ADD, RSCR, shift));
}

/* The variables' piece numbers: -1 for those of the predicate, of
 * several pieces (speculate()'s) or of none. */
static void mark_vars(struct node *n, int piece)
{
	if (!n)
		return;
	if (n->kind == N_VAR && n->var) {
		struct var *v = n->var;

		v->piece = v->piece == -2 || v->piece == piece ? piece : -1;
	}
	/* D: every record after speculate() reads its variable (cg_spec.c),
	 * in whatever piece it is sent */
	if (n->kind == N_CALL && n->builtin == F_SPECULATE && n->nargs &&
	    n->args[0]->kind == N_VAR && n->args[0]->var)
		n->args[0]->var->piece = -1;
	mark_vars(n->a, piece);
	mark_vars(n->b, piece);
	mark_vars(n->c, piece);
	for (int i = 0; i < n->nargs; i++)
		mark_vars(n->args[i], piece);
}

static void piece_vars(struct node *p, const struct split *sp)
{
	struct probe_info *pi = p->extra;

	for (struct var *v = pi->vars; v; v = v->next)
		v->piece = -2;
	mark_vars(p->a, -1);
	for (int k = 0; k < sp->n; k++)
		for (int i = sp->cut[k]; i < sp->cut[k + 1]; i++)
			mark_vars(p->b->args[i], k);
	for (struct var *v = pi->vars; v; v = v->next)
		if (v->piece == -2)
			v->piece = -1;
}

/* Piece K of a long body, at the end of g->ir, entered at ENTRY: its
 * statements, then its prologue inserted before them.  It returns 0,
 * or 1 where exit() or return end the probe. */
static void gen_piece(struct cg *g, struct node *b, const struct split *sp,
		      int k, int entry)
{
	int at = g->ir.n, ret0 = cg_label(g);
	struct ir pro;

	ir_init(&pro);
	g->exit_label = cg_label(g);
	g->uses_ctx = false;
	g->stack = g->stack_max = 0;
	cg_bind(g, entry);
	place_vars(g, sp, k);
	for (int i = sp->cut[k]; i < sp->cut[k + 1] && !g->ir.overflow; i++)
		stmt(g, b->args[i]);
	g->ir.line = 0;
	cg_bind(g, ret0);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
	cg_bind(g, g->exit_label);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());

	pro.line = g->ir.v[at].line;
	if (g->uses_ctx)
		ir_emit(&pro, MOV_REG(RCTX, R1));
	if (cg_names_reg(g, at, RSCR))
		cg_scratch_lookup(&pro, ret0, g->c->dscratch);
	init_vars(g, &pro, sp, k);
	cg_insert(g, at, &pro, entry);
	ir_free(&pro);
}

/* The body of a split program: the main program calls each piece in
 * turn, and ends when one returns 1; then the pieces.  The pieces' stack
 * is what the main program's leaves of the 512 bytes a chain of calls
 * may use, in the verifier's 32-byte steps. */
static void gen_split(struct cg *g, struct node *p, const struct split *sp)
{
	int *entry = xmalloc(sizeof(int) * (size_t)sp->n);
	int main_exit = g->exit_label;
	bool valued = g->ps->ops->stage == STAGE_TEST && valued_return(p->b);

	for (int k = 0; k < sp->n; k++) {
		entry[k] = cg_label(g);
		ir_func(&g->ir, entry[k]);
		g->ir.nglobal++;
		g->ir.line = script_line(p->b->args[sp->cut[k]]->loc);
		cg_emit(g, MOV_REG(R1, RCTX));
		ir_call(&g->ir, entry[k]);
		if (valued) {	/* a piece's (EXPR << 1) | 1: EXPR */
			int next = cg_label(g);

			cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), next);
			cg_emit(g, ALU64_IMM(BPF_RSH, R0, 1));
			cg_emit(g, EXIT());
			cg_bind(g, next);
		} else {
			cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), main_exit);
		}
	}
	g->ir.line = 0;
	cg_bind(g, main_exit);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
	g->stack_limit = STACK_LIMIT - 32 -	/* 32: the lookup's frame */
		ALIGN_UP(STACK_RESERVED + g->stack_max, 32);
	g->lookup_label = cg_label(g);
	ir_func(&g->ir, g->lookup_label);
	g->piece = true;
	for (int k = 0; k < sp->n && !g->ir.overflow; k++)
		gen_piece(g, p->b, sp, k, entry[k]);
	g->piece = false;
	if (g->lookup_used) {
		cg_bind(g, g->lookup_label);
		cg_emit(g, CALL(BPF_FUNC_map_lookup_elem));
		cg_emit(g, EXIT());
	} else {	/* never called: the kernel would not count it as a
			 * function, and func_info would not match */
		ir_unfunc(&g->ir, g->lookup_label);
	}
	g->exit_label = main_exit;
	g->uses_ctx = true;	/* the calls pass it */
	free(entry);
}

/* D: where a fault stops clause P (cg_fault()): the record that says it
 * (EVID_D_FAULT), then the ERROR clauses (P->c, lang/dlower.c's copies),
 * then the end of the probe.  Code after it is not the clause's: its
 * faults are off (callbacks are other functions). */
static void fault_path(struct cg *g, struct node *p)
{
	struct mem rec;
	int prog = g->c->nprogs;

	cg_jump(g, JA(), g->exit_label);
	cg_bind(g, g->fault_label);
	rec = cg_tmp_alloc(g, 32, p);
	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off,
			  (int32_t)EVID_D_FAULT));
	cg_imm(g, R0, (int64_t)((uint64_t)prog << 32 | (uint32_t)cg_probe_id(g)));
	cg_emit(g, STX(BPF_DW, rec.base, (int16_t)(rec.off + 8), R0));
	for (int i = 0; i < 2; i++) {
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)(g->fault_slot + 8 * i)));
		cg_emit(g, STX(BPF_DW, rec.base, (int16_t)(rec.off + 16 + 8 * i), R0));
	}
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	cg_addr_of(g, R2, rec);
	cg_emit(g, MOV_IMM(R3, 32));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	g->faults = false;
	if (p->c)
		cg_block(g, p->c);
}

/* The predicate and the body; SIZES, when given, gets the number of
 * instructions after each top-level statement. */
static void gen_body(struct cg *g, struct node *p, const struct split *sp,
		     int *sizes)
{
	g->ir.line = script_line(p->loc);
	if (p->a) {
		g->ir.line = script_line(p->a->loc);
		cg_branch(g, p->a, g->exit_label, false);
	}
	if (sp) {
		gen_split(g, p, sp);
		return;
	}
	for (int i = 0; i < p->b->nargs && !g->ir.overflow; i++) {
		struct node *st = p->b->args[i];

		stmt(g, st);
		if (sizes)
			sizes[i] = g->ir.n;
		/* D's actions: the statements that are calls, but for
		 * the firing line (lang/dlower.c's printf marked 1) */
		g->action += st->kind == N_EXPRSTMT && st->a->kind == N_CALL &&
			     !(st->a->ival == 1 && !strcmp(st->a->name, "printf"));
	}
	g->ir.line = 0;
	if (g->faults)
		fault_path(g, p);
	cg_bind(g, g->exit_label);
	if (g->ret_slot)	/* override()'s value, or 0 */
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)g->ret_slot));
	else
		cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
	cg_callbacks(g);
}

/* sonde serve's filter: events of tasks whose real uid, then effective
 * uid (current->cred->euid, read through fp-8, which nothing of the
 * body uses before its own prologue), is not c->filter_uid end at
 * EXIT.  A setuid program the user starts is not the user's. */
static void uid_filter(struct compiler *c, struct ir *pro, int exit)
{
	static const int size[2] = { 8, 4 };
	const int off[2] = { c->cred_off, c->euid_off };

	ir_emit(pro, CALL(BPF_FUNC_get_current_uid_gid));
	ir_emit(pro, ALU64_IMM(BPF_LSH, R0, 32));
	ir_emit(pro, ALU64_IMM(BPF_RSH, R0, 32));
	ir_ld64(pro, R1, c->filter_uid, RELOC_NONE, 0);
	ir_jump(pro, JMP_REG(BPF_JNE, R0, R1), exit);
	ir_emit(pro, CALL(BPF_FUNC_get_current_task));
	ir_emit(pro, MOV_REG(R3, R0));
	for (int i = 0; i < 2; i++) {	/* ->cred, then ->euid */
		if (i)
			ir_emit(pro, LDX(BPF_DW, R3, RFP, -8));
		ir_emit(pro, ALU64_IMM(BPF_ADD, R3, off[i]));
		ir_emit(pro, MOV_IMM(R2, size[i]));
		ir_emit(pro, MOV_REG(R1, RFP));
		ir_emit(pro, ALU64_IMM(BPF_ADD, R1, -8));
		ir_emit(pro, CALL(BPF_FUNC_probe_read_kernel));
		ir_jump(pro, JMP_IMM(BPF_JNE, R0, 0), exit);
	}
	ir_emit(pro, LDX(BPF_W, R0, RFP, -8));
	ir_ld64(pro, R1, c->filter_uid, RELOC_NONE, 0);
	ir_jump(pro, JMP_REG(BPF_JNE, R0, R1), exit);
}

/* The prologue, now that the body said what it needs, put before it. */
static void gen_prologue(struct cg *g, struct node *p, const struct split *sp)
{
	struct compiler *c = g->c;
	struct probe_spec *ps = g->ps;
	int main_end = sp ? g->ir.label_at[g->ir.funcs[0]] : g->ir.n;
	bool scratch = false;
	struct ir pro;

	ir_init(&pro);
	pro.line = script_line(p->loc);
	if (g->ret_slot)	/* before anything may end the program */
		ir_emit(&pro, ST_IMM(BPF_DW, RFP, (int16_t)g->ret_slot, 0));
	/* a raw_syscalls merge: only the system calls of its parts */
	if (ps->sys_nrs) {
		cg_sys_select(&pro, g->exit_label, g->uses_ctx);
		g->uses_ctx = false;	/* saved already */
	}
	/* -p PID: events of other processes end here (timers and
	 * BEGIN/END are not the process's events) */
	if (c->target_pid && probe_has(ps, PF_TASK)) {
		if (g->uses_ctx)
			ir_emit(&pro, MOV_REG(RCTX, R1));
		ir_emit(&pro, CALL(BPF_FUNC_get_current_pid_tgid));
		ir_emit(&pro, ALU64_IMM(BPF_RSH, R0, 32));
		ir_jump(&pro, JMP_IMM(BPF_JNE, R0, c->target_pid), g->exit_label);
		g->uses_ctx = false;	/* saved already */
	}
	/* sonde serve: a user's probes see only that user's tasks */
	if (c->filter_uid_on && probe_has(ps, PF_TASK)) {
		if (g->uses_ctx)
			ir_emit(&pro, MOV_REG(RCTX, R1));
		uid_filter(c, &pro, g->exit_label);
		g->uses_ctx = false;	/* saved already */
	}
	if (g->uses_ctx)
		ir_emit(&pro, MOV_REG(RCTX, R1));
	/* D: nothing runs after exit() but END */
	if (c->lang_d && ps->ops->stage != STAGE_END) {
		ir_ld64(&pro, R0, (uint64_t)(uint32_t)(STATS_DEXIT(c) * 8) << 32,
			RELOC_STATS, STATS_DEXIT(c));
		ir_emit(&pro, LDX(BPF_DW, R0, R0, 0));
		ir_jump(&pro, JMP_IMM(BPF_JNE, R0, 0), g->exit_label);
	}
	/* An iterator's last call has no element (ctx->task, the second
	 * field of every bpf_iter__task* context, is NULL): skip it. */
	if (ps->ops->ctx == CTX_ITER) {
		ir_emit(&pro, LDX(BPF_DW, R0, R1, 8));
		ir_jump(&pro, JMP_IMM(BPF_JEQ, R0, 0), g->exit_label);
	}
	if (!sp) {
		scratch = g->scratch_max;
	} else {
		for (struct var *v = g->pi->vars; v; v = v->next)
			scratch |= v->piece < 0;
		for (int i = 0; i < main_end && !scratch; i++)
			scratch = g->ir.v[i].in.dst_reg == RSCR ||
				  g->ir.v[i].in.src_reg == RSCR;
	}
	if (scratch || (c->dscratch && g->dbase_slot))
		cg_scratch_lookup(&pro, g->exit_label, c->dscratch);
	if (c->dscratch && g->dbase_slot)
		cg_dscratch_prologue(g, &pro);
	init_vars(g, &pro, sp, -1);
	cg_insert(g, 0, &pro, -1);
	ir_free(&pro);
}

/* Assemble IR as the next program, for probe PS; 0 or -1. */
static int add_prog(struct compiler *c, struct ir *ir,
		    const struct probe_spec *ps, bool sleepable)
{
	struct prog_spec *out;
	int rc;

	if (c->nprogs == c->progs_cap) {
		c->progs_cap = c->progs_cap ? c->progs_cap * 2 : 8;
		c->progs = xrealloc(c->progs, sizeof(*c->progs) *
				    (size_t)c->progs_cap);
	}
	out = &c->progs[c->nprogs];
	memset(out, 0, sizeof(*out));
	out->probe = *ps;
	ps->ops->load(ps, &out->load);
	out->load.sleepable = sleepable;
	out->fd = -1;
	out->sites_fd = -1;
	out->sysnr_fd = -1;
	rc = asm_resolve(c, ir, out);
	if (!rc)
		c->nprogs++;
	return rc;
}

/* One attempt; with TMP_ON_STACK, sets *RETRY when the stack ran out
 * because temporaries took it; with MAY_SLEEP, sets *ATOMIC when the
 * program must not sleep after all (it uses stacks).  SP: the pieces of
 * a long body, or NULL; SIZES as gen_body's. */
static int gen_once(struct compiler *c, struct node *p, struct probe_spec *ps,
		    bool tmp_on_stack, bool may_sleep, bool *retry,
		    bool *atomic, const struct split *sp, int *sizes)
{
	struct cg g;
	int rc;

	memset(&g, 0, sizeof(g));
	g.c = c;
	g.ps = ps;
	g.pi = p->extra;
	g.brk = g.cont = -1;
	g.tmp_on_stack = tmp_on_stack;
	g.may_sleep = may_sleep;
	g.stack_limit = STACK_LIMIT;
	ir_init(&g.ir);
	g.exit_label = cg_label(&g);
	g.var_base = RFP;
	if (sp)
		piece_vars(p, sp);
	place_vars(&g, sp, -1);
	if (ps->modify_return) {	/* never split: a TRACING program */
		g.stack += 8;
		g.stack_max = g.stack;
		g.ret_slot = -(STACK_RESERVED + g.stack);
	}
	if (!sp && cg_has_formap(p->b)) {
		/* loops over maps: r6 and a flag (cg_loop.c) */
		g.stack += 16;
		g.stack_max = g.stack;
		g.fe_slot = -(STACK_RESERVED + g.stack);
	}
	if (!sp && c->lang_d) {	/* D's faults: what, then where */
		g.stack += 16;
		g.stack_max = g.stack;
		g.fault_slot = -(STACK_RESERVED + g.stack);
		g.fault_label = cg_label(&g);
		g.faults = true;
		g.action = 1;
		if (c->dscratch) {
			g.stack += 8;
			g.stack_max = g.stack;
			g.dbase_slot = -(STACK_RESERVED + g.stack);
		}
	}
	gen_body(&g, p, sp, sizes);
	cg_call26_funcs(&g);
	gen_prologue(&g, p, sp);

	if (!g.failed && g.scratch_max + c->dscratch > c->scratch_size)
		c->scratch_size = g.scratch_max + c->dscratch;
	*atomic = g.sleeps && g.atomic;
	rc = g.failed || *atomic ? -1 : add_prog(c, &g.ir, ps, g.sleeps);
	*retry = g.retry;
	free(g.cbs);
	ir_free(&g.ir);
	return rc;
}

/* Whether a global function may take this program's context as a
 * `void *` argument tagged arg:ctx (Linux 6.8). */
static bool can_split(const struct prog_spec *ps)
{
	switch (ps->load.type) {
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_PERF_EVENT:
		return true;
	default:
		return false;
	}
}

/* Cut a body whose top-level statements end at SIZES[i] instructions
 * into pieces of about PIECE_INSNS, or larger ones where that would make
 * more than MAX_PIECES (the kernel takes 256 functions a program). */
static void cut_body(const int *sizes, int n, struct split *sp)
{
	int start = 0, piece = sizes[n - 1] / MAX_PIECES + 1;

	if (piece < PIECE_INSNS)
		piece = PIECE_INSNS;
	sp->cut = xmalloc(sizeof(int) * ((size_t)n + 1));
	sp->n = 0;
	sp->cut[sp->n++] = 0;
	for (int i = 1; i < n; i++) {
		if (sizes[i - 1] - start >= piece) {
			sp->cut[sp->n++] = i;
			start = sizes[i - 1];
		}
	}
	sp->cut[sp->n] = n;
}

/* The uprobe of a FUNC+argN watchpoint whose block is program BODY:
 * stop the process (unless async), then send {EVID_WATCH, BODY, argN,
 * tgid} to user space, which watches the address and lets the process
 * go on.  The stop comes first: user space may answer on another CPU
 * before this program ends.  A record the full ring buffer refuses
 * sends SIGCONT at once, which cancels the pending SIGSTOP. */
static int gen_watch_setup(struct compiler *c, const struct probe_spec *body,
			   int index)
{
	struct probe_spec ps = probe_watch_setup(c, body);
	struct ir ir;
	int sent, rc;

	ir_init(&ir);
	ir.line = script_line(body->loc);
	sent = ir_label(&ir);
	ir_emit(&ir, MOV_REG(RCTX, R1));
	if (!body->watch_async) {
		ir_emit(&ir, MOV_IMM(R1, SIGSTOP));
		ir_emit(&ir, CALL(BPF_FUNC_send_signal));
	}
	ir_emit(&ir, ST_IMM(BPF_DW, RFP, -32, (int32_t)EVID_WATCH));
	ir_emit(&ir, ST_IMM(BPF_DW, RFP, -24, index));
	ir_emit(&ir, LDX(BPF_DW, R1, RCTX, (int16_t)pt_regs_arg(body->watch_arg)));
	ir_emit(&ir, STX(BPF_DW, RFP, -16, R1));
	ir_emit(&ir, CALL(BPF_FUNC_get_current_pid_tgid));
	ir_emit(&ir, ALU64_IMM(BPF_RSH, R0, 32));
	ir_emit(&ir, STX(BPF_DW, RFP, -8, R0));
	ir_ld64(&ir, R1, 0, RELOC_RINGBUF_FD, 0);
	ir_emit(&ir, MOV_REG(R2, RFP));
	ir_emit(&ir, ALU64_IMM(BPF_ADD, R2, -32));
	ir_emit(&ir, MOV_IMM(R3, 32));
	ir_emit(&ir, MOV_IMM(R4, 0));
	ir_emit(&ir, CALL(BPF_FUNC_ringbuf_output));
	if (!body->watch_async) {
		ir_jump(&ir, JMP_IMM(BPF_JEQ, R0, 0), sent);
		ir_emit(&ir, MOV_IMM(R1, SIGCONT));
		ir_emit(&ir, CALL(BPF_FUNC_send_signal));
	}
	ir_bind(&ir, sent);
	ir_emit(&ir, MOV_IMM(R0, 0));
	ir_emit(&ir, EXIT());
	rc = add_prog(c, &ir, &ps, false);
	ir_free(&ir);
	return rc;
}

/* Whether programs of PS's kind can be made sleepable here (probe.c
 * asked the kernel when such a probe expanded). */
static bool can_sleep(const struct compiler *c, const struct probe_spec *ps)
{
	return probe_has(ps, PF_SLEEP) && c->sleepable_uprobe > 0;
}

/* One program for PS, or a program in pieces when its body is long;
 * then, for a FUNC+argN watchpoint, its uprobe. */
static int gen_prog(struct compiler *c, struct node *p, struct probe_spec *ps)
{
	bool retry = false, atomic = false, sleep = can_sleep(c, ps);
	int n = p->b->nargs, rc, body = c->nprogs, depth;
	int *sizes = xmalloc(sizeof(int) * (size_t)(n ? n : 1));
	struct split sp = { NULL, 0 };

	rc = gen_once(c, p, ps, true, sleep, &retry, &atomic, NULL, sizes);
	if (rc && atomic)
		rc = gen_once(c, p, ps, true, sleep = false, &retry, &atomic,
			      NULL, sizes);
	if (rc && retry)
		rc = gen_once(c, p, ps, false, sleep, &retry, &atomic, NULL,
			      sizes);
	/* (not a program with callbacks, cg_loop.c) */
	if (!rc && n > 1 && c->progs[c->nprogs - 1].ninsns > SPLIT_INSNS &&
	    can_split(&c->progs[c->nprogs - 1]) &&
	    !c->progs[c->nprogs - 1].nfuncs) {
		c->nprogs--;
		cut_body(sizes, n, &sp);
		rc = gen_once(c, p, ps, true, sleep, &retry, &atomic, &sp, NULL);
		if (rc && retry)
			rc = gen_once(c, p, ps, false, sleep, &retry, &atomic,
				      &sp, NULL);
		free(sp.cut);
	}
	free(sizes);
	depth = rc ? 0 : asm_branch_depth(&c->progs[c->nprogs - 1]);
	if (depth > MAX_BRANCHES) {
		diag_error(&c->diag, ps->loc, E_LIMIT,
			   "probe %s: a path through %d conditional jumps, more than the kernel's verifier follows (%d); split the block",
			   ps->name, depth, MAX_BRANCHES);
		rc = -1;
	}
	/* a FUNC+argN watchpoint: its uprobe follows its block */
	if (!rc && ps->ops->stage == STAGE_WATCH)
		rc = gen_watch_setup(c, ps, body);
	return rc;
}

int cg_program(struct compiler *c)
{
	int rc = 0;

	/* D's scratch memory: the top word, scratchsize bytes, as many
	 * again (cg_dscratch.c) */
	c->dscratch = c->lang_d && c->d_alloca ?
		      (int)(16 + 2 * c->dt_scratchsize) : 0;
	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;

		for (int i = 0, used; i < pi->nspecs; i += used) {
			/* a kprobe_multi or uprobe_multi set is one
			 * program */
			unsigned need = (pi->per_site ? MERGE_PER_SITE : 0) |
					(pi->per_name ? MERGE_NAMES : 0) |
					(pi->kstack ? MERGE_KSTACK : 0);
			struct probe_spec *m = probe_merge(c, pi->specs + i,
							   pi->nspecs - i, need,
							   p->args[0]->name,
							   &used);

			if (gen_prog(c, p, m ? m : &pi->specs[i]))
				rc = -1;
		}
	}
	c->nstats = STATS_STACKS(c) + (c->nstack_maps ? 1 : 0);
	if (c->uses_spec)	/* D: the count, then each speculation */
		c->nstats = STATS_SPEC(c) + 2 +
			    (c->dt_nspec > 0 ? c->dt_nspec : 1);
	if (c->lang_d)		/* and the exit flag */
		c->nstats = STATS_DEXIT(c) + 1;
	return rc;
}
