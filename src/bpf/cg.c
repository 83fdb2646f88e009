/* cg.c - one BPF program per attach point: prologue, statements,
 * register and memory bookkeeping shared by the other cg files. */
#include "bpf/cg_int.h"

#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"

void cg_emit(struct cg *g, struct bpf_insn in)
{
	ir_emit(&g->ir, in);
}

void cg_jump(struct cg *g, struct bpf_insn in, int label)
{
	ir_jump(&g->ir, in, label);
}

int cg_label(struct cg *g)
{
	return ir_label(&g->ir);
}

void cg_bind(struct cg *g, int label)
{
	ir_bind(&g->ir, label);
}

void cg_imm(struct cg *g, int reg, int64_t v)
{
	if (v >= INT32_MIN && v <= INT32_MAX)
		cg_emit(g, MOV_IMM(reg, (int32_t)v));
	else
		ir_ld64(&g->ir, reg, (uint64_t)v, RELOC_NONE, 0);
}

void cg_ld_map(struct cg *g, int reg, enum reloc_kind k, int arg)
{
	ir_ld64(&g->ir, reg, 0, k, arg);
}

void cg_call(struct cg *g, int helper)
{
	cg_emit(g, CALL(helper));
}

/* An 8-byte stack slot; callers give slots back by restoring g->stack. */
int cg_stack_alloc(struct cg *g, struct node *at)
{
	g->stack += 8;
	if (g->stack > STACK_LIMIT - STACK_RESERVED) {
		if (g->tmp_on_stack)	/* temporaries took it: retry */
			g->retry = true;
		else if (!g->failed)
			diag_error(&g->c->diag, at ? at->loc : g->ps->loc, E_STACK,
				   "probe %s needs more than %d bytes of BPF stack for its integer variables and temporaries",
				   g->ps->name, STACK_LIMIT);
		g->failed = true;
		g->stack = 8;
	}
	if (g->stack > g->stack_max)
		g->stack_max = g->stack;
	return -(STACK_RESERVED + g->stack);
}

/* Memory for a temporary key, value, record or string of SIZE bytes:
 * on the stack while it has room, else in scratch.  The stack costs no
 * instructions, scratch a lookup in the prologue.  Should the stack
 * later run out for 8-byte slots, gen_prog compiles the probe again
 * with every temporary in scratch.  Callers give the memory back by
 * restoring g->stack and g->scratch. */
struct mem cg_tmp_alloc(struct cg *g, int size, struct node *at)
{
	int sz = ALIGN_UP(size, 8);
	struct mem m;

	if (!g->tmp_on_stack || g->stack + sz > STACK_LIMIT - STACK_RESERVED)
		return cg_scratch_alloc(g, size, at);
	g->stack += sz;
	if (g->stack > g->stack_max)
		g->stack_max = g->stack;
	m.base = RFP;
	m.off = -(STACK_RESERVED + g->stack);
	return m;
}

struct mem cg_scratch_alloc(struct cg *g, int size, struct node *at)
{
	struct mem m = { RSCR, g->scratch };

	g->scratch += ALIGN_UP(size, 8);
	if (g->scratch > SCRATCH_LIMIT) {
		if (!g->failed)
			diag_error(&g->c->diag, at ? at->loc : g->ps->loc, E_STACK,
				   "probe %s needs more than %d bytes of scratch memory (lower BPFTRACE_STRLEN?)",
				   g->ps->name, SCRATCH_LIMIT);
		g->failed = true;
		g->scratch = 0;
		m.off = 0;
	}
	if (g->scratch > g->scratch_max)
		g->scratch_max = g->scratch;
	return m;
}

void cg_addr_of(struct cg *g, int reg, struct mem m)
{
	cg_emit(g, MOV_REG(reg, m.base));
	if (m.off)
		cg_emit(g, ALU64_IMM(BPF_ADD, reg, m.off));
}

/* Zero bytes [FROM, TO) of M with the widest stores that fit. */
void cg_zero(struct cg *g, struct mem m, int from, int to)
{
	while (from < to) {
		int n = to - from, sz;

		if (n >= 8 && !(from & 7))
			n = 8, sz = BPF_DW;
		else if (n >= 4 && !(from & 3))
			n = 4, sz = BPF_W;
		else if (n >= 2 && !(from & 1))
			n = 2, sz = BPF_H;
		else
			n = 1, sz = BPF_B;
		cg_emit(g, ST_IMM(sz, m.base, (int16_t)(m.off + from), 0));
		from += n;
	}
}

/* Add one to slot SLOT of the stats counters (lost events, map drops):
 * an atomic add at the counter's address, as losses are rare and a
 * lookup would cost more instructions than the add.  Clobbers r1, r2. */
void cg_count_stat(struct cg *g, int slot)
{
	ir_ld64(&g->ir, R1, (uint64_t)(uint32_t)(slot * 8) << 32, RELOC_STATS,
		slot);
	cg_emit(g, MOV_IMM(R2, 1));
	cg_emit(g, bpf_i(BPF_STX | BPF_ATOMIC | BPF_DW, R1, R2, 0, BPF_ADD));
}

static const char *helper_name(int helper)
{
	switch (helper) {
	case BPF_FUNC_probe_read: return "probe_read";
	case BPF_FUNC_probe_read_str: return "probe_read_str";
	case BPF_FUNC_probe_read_user: return "probe_read_user";
	case BPF_FUNC_probe_read_user_str: return "probe_read_user_str";
	case BPF_FUNC_probe_read_kernel: return "probe_read_kernel";
	case BPF_FUNC_probe_read_kernel_str: return "probe_read_kernel_str";
	default: return "helper";
	}
}

/* Call HELPER, a memory read for the expression AT; with -k, count its
 * failures (a negative return) in the stats slot of its site, and keep
 * the last error in the next slot.  A site
 * is its place in the script and its helper, so the probes of a
 * wildcard share one, and a recompiled probe finds its own again. */
void cg_read_call(struct cg *g, int helper, struct node *at)
{
	struct compiler *c = g->c;
	const char *name = helper_name(helper);
	struct loc l = at ? at->loc : g->ps->loc;
	int site, ok;

	cg_call(g, helper);
	if (!c->check_reads)
		return;
	for (site = 0; site < c->nread_sites; site++)
		if (c->read_sites[site].loc.off == l.off &&
		    c->read_sites[site].loc.len == l.len &&
		    c->read_sites[site].helper == name)
			break;
	if (site == c->nread_sites) {
		if (c->nread_sites == c->read_sites_cap) {
			c->read_sites_cap = c->read_sites_cap ?
					    c->read_sites_cap * 2 : 8;
			c->read_sites = xrealloc(c->read_sites,
						 sizeof(*c->read_sites) *
						 (size_t)c->read_sites_cap);
		}
		c->read_sites[site].loc = l;
		c->read_sites[site].helper = name;
		c->nread_sites++;
	}
	ok = cg_label(g);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_count_stat(g, STATS_READS(c) + 2 * site);
	cg_emit(g, STX(BPF_DW, R1, 8, R0));	/* r1: the counter's address */
	cg_bind(g, ok);
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
				 ty_promote(v->ty) : ty_arith(v->ty, n->b->ty);
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

static void stmt(struct cg *g, struct node *n)
{
	int saved_stack = g->stack, saved_scratch = g->scratch;

	g->ir.line = n->loc.line;
	switch (n->kind) {
	case N_EXPRSTMT: {
		struct node *e = n->a;

		if (e->kind == N_CALL && e->ty->kind == TY_VOID)
			cg_call_stmt(g, e);
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
		g->ir.line = n->loc.line;
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

static enum bpf_prog_type prog_type(const struct probe_spec *ps)
{
	if (ps->kind == PK_RAWTP && ps->tp_btf)
		return BPF_PROG_TYPE_TRACING;
	switch (ps->kind) {
	case PK_INTERVAL: case PK_PROFILE: case PK_SOFTWARE: case PK_HARDWARE:
	case PK_WATCHPOINT:
		return BPF_PROG_TYPE_PERF_EVENT;
	case PK_TRACEPOINT:
		return BPF_PROG_TYPE_TRACEPOINT;
	case PK_UPROBE: case PK_URETPROBE: case PK_KPROBE: case PK_KRETPROBE:
	case PK_USDT:
		return BPF_PROG_TYPE_KPROBE;
	case PK_FENTRY: case PK_FEXIT:
		return BPF_PROG_TYPE_TRACING;
	case PK_ITER:
		return BPF_PROG_TYPE_TRACING;
	default:	/* BEGIN, END (run by test-run), raw tracepoints */
		return BPF_PROG_TYPE_RAW_TRACEPOINT;
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

/* One attempt; with TMP_ON_STACK, sets *RETRY when the stack ran out
 * because temporaries took it. */
static int gen_once(struct compiler *c, struct node *p, struct probe_spec *ps,
		    bool tmp_on_stack, bool *retry)
{
	struct cg g;
	struct ir pro;
	struct prog_spec *out;
	int rc;

	memset(&g, 0, sizeof(g));
	g.c = c;
	g.ps = ps;
	g.pi = p->extra;
	g.brk = g.cont = -1;
	g.tmp_on_stack = tmp_on_stack;
	ir_init(&g.ir);
	ir_init(&pro);
	g.exit_label = cg_label(&g);
	place_vars(&g);

	g.ir.line = p->loc.line;
	if (p->a) {
		g.ir.line = p->a->loc.line;
		cg_branch(&g, p->a, g.exit_label, false);
	}
	cg_block(&g, p->b);
	g.ir.line = 0;
	cg_bind(&g, g.exit_label);
	cg_emit(&g, MOV_IMM(R0, 0));
	cg_emit(&g, EXIT());

	/* Prologue, now that we know what the body needs. */
	pro.line = p->loc.line;
	/* -p PID: events of other processes end here (timers and
	 * BEGIN/END are not the process's events) */
	if (c->target_pid && ps->kind != PK_BEGIN && ps->kind != PK_END &&
	    ps->kind != PK_INTERVAL && ps->kind != PK_ITER) {
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
	if (ps->kind == PK_ITER) {
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
	if (c->nprogs == c->progs_cap) {
		c->progs_cap = c->progs_cap ? c->progs_cap * 2 : 8;
		c->progs = xrealloc(c->progs, sizeof(*c->progs) *
				    (size_t)c->progs_cap);
	}
	out = &c->progs[c->nprogs];
	memset(out, 0, sizeof(*out));
	out->probe = *ps;
	out->type = prog_type(ps);
	out->fd = -1;
	rc = g.failed ? -1 : asm_resolve(c, &g.ir, out);
	if (!rc)
		c->nprogs++;
	*retry = g.retry;
	ir_free(&g.ir);
	ir_free(&pro);
	return rc;
}

static int gen_prog(struct compiler *c, struct node *p, struct probe_spec *ps)
{
	bool retry = false;
	int rc = gen_once(c, p, ps, true, &retry);

	if (rc && retry)
		rc = gen_once(c, p, ps, false, &retry);
	return rc;
}

/* The functions a kprobe wildcard matched become one kprobe_multi
 * program, attached by one link, when nothing in the block tells the
 * functions apart (probe, func) and the kernel can: attaching and
 * detaching hundreds then costs one system call, not hundreds.  So do
 * the functions of one file a uprobe block matched, as uprobe_multi:
 * closing a uprobe's perf event waits 85 ms in the kernel, one after
 * the other, so 1,000 of them took 84 s to detach; one link, 0.1 s. */
static struct probe_spec *multi_spec(struct compiler *c, struct node *p)
{
	struct probe_info *pi = p->extra;
	struct probe_spec *ps;
	enum probe_kind k;
	bool up;

	if (pi->nspecs < 2 || pi->per_site)
		return NULL;
	k = pi->specs[0].kind;
	up = k == PK_UPROBE || k == PK_URETPROBE;
	if (up) {
		/* one file, one link; -p and -c filter by the link's pid */
		if (!c->uprobe_multi)	/* probes.c found the kernel cannot */
			return NULL;
		for (int i = 0; i < pi->nspecs; i++)
			if (pi->specs[i].kind != k ||
			    strcmp(pi->specs[i].path, pi->specs[0].path))
				return NULL;
	} else {
		if ((k != PK_KPROBE && k != PK_KRETPROBE) || c->target_pid ||
		    !c->kprobe_multi)
			return NULL;
		for (int i = 0; i < pi->nspecs; i++)
			if (pi->specs[i].kind != k || !pi->specs[i].wild ||
			    pi->specs[i].uoffset)
				return NULL;
	}
	ps = arena_alloc(&c->arena, sizeof(*ps));
	*ps = pi->specs[0];
	ps->multi = arena_alloc(&c->arena, sizeof(char *) * (size_t)pi->nspecs);
	for (int i = 0; i < pi->nspecs; i++)
		ps->multi[i] = pi->specs[i].func;
	if (up) {
		uint64_t *off = arena_alloc(&c->arena, sizeof(*off) * (size_t)pi->nspecs);

		for (int i = 0; i < pi->nspecs; i++)
			off[i] = pi->specs[i].uoffset;
		ps->umulti = off;
	}
	ps->nmulti = pi->nspecs;
	ps->name = arena_printf(&c->arena, "%s (%d functions)", p->args[0]->name,
				pi->nspecs);
	return ps;
}

int cg_program(struct compiler *c)
{
	int rc = 0;

	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;
		struct probe_spec *m = multi_spec(c, p);

		if (m) {
			if (gen_prog(c, p, m))
				rc = -1;
			continue;
		}
		for (int i = 0; i < pi->nspecs; i++)
			if (gen_prog(c, p, &pi->specs[i]))
				rc = -1;
	}
	c->nstats = STATS_READS(c) + 2 * c->nread_sites;
	return rc;
}
