/* cg.c - one BPF program per attach point: the statements, then the
 * prologue they need, the program type the probe's kind asks for, and
 * the assembled result. */
#include "bpf/cg_int.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch.h"
#include "catalog/info.h"
#include "lang/lex.h"

/* The script line an instruction comes from, for --dump=bpf and the
 * verifier's report; 0 for code written in an included file. */
static int script_line(struct loc l)
{
	return l.file ? 0 : l.line;
}

static void stmt(struct cg *g, struct node *n);

void cg_block(struct cg *g, struct node *b)
{
	for (int i = 0; i < b->nargs && !g->ir.overflow; i++)
		stmt(g, b->args[i]);
}

static void assign_var(struct cg *g, struct node *n)
{
	struct var *v = n->a->var;

	if (ty_is_word(v->ty)) {
		if (n->op == T_ASSIGN) {
			cg_int(g, n->b);
		} else {
			/* $x op= e is $x = $x op e with $x's type. */
			struct node bin;

			memset(&bin, 0, sizeof(bin));
			bin.kind = N_BINOP;
			bin.loc = n->loc;
			bin.a = n->a;
			bin.b = n->b;
			bin.op = cg_binop_of(n->op);
			bin.ty = (bin.op == T_SHL || bin.op == T_SHR) ?
				 ty_promote(v->ty) :
				 v->ty->kind == TY_PTR && ty_step(v->ty) > 1 &&
				 (bin.op == T_PLUS || bin.op == T_MINUS) ? v->ty :
				 ty_arith(v->ty, n->b->ty);
			cg_int(g, &bin);
		}
		cg_norm(g, R0, v->ty);
		cg_emit(g, STX(BPF_DW, v->in_scratch ? RSCR : RFP,
			       (int16_t)v->slot, R0));
		return;
	}
	{
		struct mem dst = { v->in_scratch ? RSCR : RFP, v->slot };

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
	case N_UNROLL:
		for (int64_t i = 0; i < n->a->cval && !g->ir.overflow; i++)
			cg_block(g, n->b);
		break;
	case N_RETURN:
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
	default:
		break;
	}
	g->stack = saved_stack;
	g->scratch = saved_scratch;
}

/* Slots for the probe's variables, fixed for the whole program.
 * Variables go on the stack, where the verifier tracks integers' values
 * (loops need that), while STACK_VARS has room; the rest go to
 * scratch. */
static void place_vars(struct cg *g)
{
	for (struct var *v = g->pi->vars; v; v = v->next) {
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
}

/* Variables start at zero: a variable assigned on one branch only is
 * still initialised when the verifier follows the other. */
static void init_vars(struct cg *g, struct ir *pro)
{
	for (struct var *v = g->pi->vars; v; v = v->next) {
		int size = ty_slot_size(v->ty);

		for (int i = 0; i < size; i += 8)
			ir_emit(pro, ST_IMM(BPF_DW, v->in_scratch ? RSCR : RFP,
					    (int16_t)(v->slot + i), 0));
	}
}

/* Prepend PRO to the body in g->ir, shifting every bound label. */
static void prepend(struct cg *g, struct ir *pro)
{
	struct ir *ir = &g->ir;
	int k = pro->n;

	if (!k)
		return;
	while (ir->cap < ir->n + k) {
		ir->cap = ir->cap ? ir->cap * 2 : 256;
		ir->v = xrealloc(ir->v, sizeof(*ir->v) * (size_t)ir->cap);
	}
	memmove(ir->v + k, ir->v, sizeof(*ir->v) * (size_t)ir->n);
	memcpy(ir->v, pro->v, sizeof(*ir->v) * (size_t)k);
	ir->n += k;
	for (int i = 0; i < ir->nlabels; i++)
		if (ir->label_at[i] >= 0)
			ir->label_at[i] += k;
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
	rc = asm_resolve(c, ir, out);
	if (!rc)
		c->nprogs++;
	return rc;
}

/* One attempt; with TMP_ON_STACK, sets *RETRY when the stack ran out
 * because temporaries took it; with MAY_SLEEP, sets *ATOMIC when the
 * program must not sleep after all (it uses stacks). */
static int gen_once(struct compiler *c, struct node *p, struct probe_spec *ps,
		    bool tmp_on_stack, bool may_sleep, bool *retry,
		    bool *atomic)
{
	struct cg g;
	struct ir pro;
	int rc;

	memset(&g, 0, sizeof(g));
	g.c = c;
	g.ps = ps;
	g.pi = p->extra;
	g.brk = g.cont = -1;
	g.tmp_on_stack = tmp_on_stack;
	g.may_sleep = may_sleep;
	ir_init(&g.ir);
	ir_init(&pro);
	g.exit_label = cg_label(&g);
	place_vars(&g);

	g.ir.line = script_line(p->loc);
	if (p->a) {
		g.ir.line = script_line(p->a->loc);
		cg_branch(&g, p->a, g.exit_label, false);
	}
	cg_block(&g, p->b);
	g.ir.line = 0;
	cg_bind(&g, g.exit_label);
	cg_emit(&g, MOV_IMM(R0, 0));
	cg_emit(&g, EXIT());

	/* Prologue, now that we know what the body needs. */
	pro.line = script_line(p->loc);
	/* -p PID: events of other processes end here (timers and
	 * BEGIN/END are not the process's events) */
	if (c->target_pid && probe_has(ps, PF_TASK)) {
		if (g.uses_ctx)
			ir_emit(&pro, MOV_REG(RCTX, R1));
		ir_emit(&pro, CALL(BPF_FUNC_get_current_pid_tgid));
		ir_emit(&pro, ALU64_IMM(BPF_RSH, R0, 32));
		ir_jump(&pro, JMP_IMM(BPF_JNE, R0, c->target_pid), g.exit_label);
		g.uses_ctx = false;	/* saved already */
	}
	if (g.uses_ctx)
		ir_emit(&pro, MOV_REG(RCTX, R1));
	/* An iterator's last call has no element (ctx->task, the second
	 * field of every bpf_iter__task* context, is NULL): skip it. */
	if (ps->ops->ctx == CTX_ITER) {
		ir_emit(&pro, LDX(BPF_DW, R0, R1, 8));
		ir_jump(&pro, JMP_IMM(BPF_JEQ, R0, 0), g.exit_label);
	}
	if (g.scratch_max) {
		ir_emit(&pro, ST_IMM(BPF_W, RFP, -4, 0));
		ir_ld64(&pro, R1, 0, RELOC_SCRATCH_FD, 0);
		ir_emit(&pro, MOV_REG(R2, RFP));
		ir_emit(&pro, ALU64_IMM(BPF_ADD, R2, -4));
		ir_emit(&pro, CALL(BPF_FUNC_map_lookup_elem));
		ir_jump(&pro, JMP_IMM(BPF_JEQ, R0, 0), g.exit_label);
		ir_emit(&pro, MOV_REG(RSCR, R0));
	}
	init_vars(&g, &pro);
	prepend(&g, &pro);

	if (!g.failed && g.scratch_max > c->scratch_size)
		c->scratch_size = g.scratch_max;
	*atomic = g.sleeps && g.atomic;
	rc = g.failed || *atomic ? -1 : add_prog(c, &g.ir, ps, g.sleeps);
	*retry = g.retry;
	ir_free(&g.ir);
	ir_free(&pro);
	return rc;
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

/* Whether programs of PS's kind can be made sleepable here: asked of
 * the kernel once, not in the fuzz targets (a fixed catalogue). */
static bool can_sleep(struct compiler *c, const struct probe_spec *ps)
{
	if (!probe_has(ps, PF_SLEEP) || c->tracefs)
		return false;
	if (c->sleepable_uprobe < 0)
		c->sleepable_uprobe = info_sleepable_uprobe();
	return c->sleepable_uprobe;
}

static int gen_prog(struct compiler *c, struct node *p, struct probe_spec *ps)
{
	bool retry = false, atomic = false, sleep = can_sleep(c, ps);
	int body = c->nprogs;
	int rc = gen_once(c, p, ps, true, sleep, &retry, &atomic);

	if (rc && atomic)
		rc = gen_once(c, p, ps, true, sleep = false, &retry, &atomic);
	if (rc && retry)
		rc = gen_once(c, p, ps, false, sleep, &retry, &atomic);
	/* a FUNC+argN watchpoint: its uprobe follows its block */
	if (!rc && ps->ops->stage == STAGE_WATCH)
		rc = gen_watch_setup(c, ps, body);
	return rc;
}

int cg_program(struct compiler *c)
{
	int rc = 0;

	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;
		/* a kprobe_multi or uprobe_multi set is one program */
		struct probe_spec *m = probe_merge(c, pi->specs, pi->nspecs,
						   pi->per_site,
						   p->args[0]->name);

		if (m) {
			if (gen_prog(c, p, m))
				rc = -1;
			continue;
		}
		for (int i = 0; i < pi->nspecs; i++)
			if (gen_prog(c, p, &pi->specs[i]))
				rc = -1;
	}
	c->nstats = STATS_STACKS(c) + (c->nstack_maps ? 1 : 0);
	return rc;
}
