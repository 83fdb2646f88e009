/* cg_loop.c - callbacks: subprograms that a helper calls, emitted after
 * the code that calls them (a function is one range of instructions,
 * so a callback cannot sit inside its caller).
 *
 * for ($kv : @m) { ... } is bpf_for_each_map_elem(), its body a
 * callback.  The probe's variables stay in the main program's frame:
 * its r10 is the callback's context argument, kept in r8, so a
 * variable is at the same offset from r8 as from the main program's
 * r10 (g->var_base).  The main frame also keeps, at g->fe_slot, the
 * probe's context (r6, which a callback reloads when it needs it) and
 * a flag the body sets when return or exit() end the probe.  The body
 * returns 0 for the next entry (continue), 1 to stop (break, and the
 * flag for return).
 *
 * Reading an aggregation's value (count(), sum(), min(), max(),
 * avg()) merges the CPUs' values with bpf_loop(): one callback per map
 * looks the key up on CPU i with bpf_map_lookup_percpu_elem() and folds
 * the value into {acc0, acc1} on the caller's stack; the first CPU
 * without it (past the last possible CPU, or a key not in the map)
 * ends the loop.
 */
#include "bpf/cg_int.h"

#include <string.h>

#include "lang/lex.h"

/* bpf_loop's bound: more CPUs than Linux has (NR_CPUS is at most 8192). */
#define PERCPU_MAX_CPUS 8192

enum cb_kind { CB_FOREACH, CB_PERCPU, CB_FUNC };

struct cg_cb {
	enum cb_kind kind;
	int label;
	struct node *n;		/* FOREACH: the N_FOR */
	struct mapinfo *m;
	int parent;		/* the callback that calls it, -1: main */
	int scratch;		/* scratch in use at the call */
	int limit, used;	/* its stack, once emitted */
	cg_cb_body body;	/* FUNC: writes the body, with ARGS */
	int args[CG_CB_ARGS];
};

/* The callback being emitted, -1 in the main program. */
static int current_cb(const struct cg *g)
{
	return g->var_base == RFP ? -1 : g->fe_cur;
}

static struct cg_cb *cb_add(struct cg *g, enum cb_kind kind,
			    struct mapinfo *m)
{
	struct cg_cb *cb;

	if (kind == CB_PERCPU)	/* one per map */
		for (int i = 0; i < g->ncbs; i++)
			if (g->cbs[i].kind == CB_PERCPU && g->cbs[i].m == m)
				return &g->cbs[i];
	if (g->ncbs == g->cbs_cap) {
		g->cbs_cap = g->cbs_cap ? g->cbs_cap * 2 : 8;
		g->cbs = xrealloc(g->cbs, sizeof(*g->cbs) *
				  (size_t)g->cbs_cap);
	}
	cb = &g->cbs[g->ncbs++];
	memset(cb, 0, sizeof(*cb));
	cb->kind = kind;
	cb->m = m;
	cb->label = cg_label(g);
	cb->parent = current_cb(g);
	cb->scratch = g->scratch;
	return cb;
}

/* r0 = the value of M's entry whose key is at KEY (INDIRECT: whose
 * address is stored at KEY), merged over the CPUs. */
static void merge(struct cg *g, struct mapinfo *m, struct mem key,
		  bool indirect, struct node *at)
{
	int saved_stack = g->stack;
	int label = cb_add(g, CB_PERCPU, m)->label;
	int ctx, zero = cg_label(g), done = cg_label(g);

	cg_stack_alloc(g, at);
	cg_stack_alloc(g, at);
	ctx = cg_stack_alloc(g, at);	/* {acc0, acc1, key address} */
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)ctx, 0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)(ctx + 8), 0));
	if (indirect)
		cg_emit(g, LDX(BPF_DW, R1, key.base, (int16_t)key.off));
	else
		cg_addr_of(g, R1, key);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)(ctx + 16), R1));
	cg_emit(g, MOV_IMM(R1, PERCPU_MAX_CPUS));
	ir_ld_func(&g->ir, R2, label);
	cg_emit(g, MOV_REG(R3, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, ctx));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_loop);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)ctx));
	if (m->agg == AGG_AVG) {
		/* total / count, signed, 0 without values */
		int pos = cg_label(g);

		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)(ctx + 8)));
		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), zero);
		cg_jump(g, JMP_IMM(BPF_JSGE, R1, 0), pos);
		cg_emit(g, ALU64_IMM(BPF_NEG, R1, 0));
		cg_emit(g, ALU64_REG(BPF_DIV, R1, R0));
		cg_emit(g, ALU64_IMM(BPF_NEG, R1, 0));
		cg_emit(g, MOV_REG(R0, R1));
		cg_jump(g, JA(), done);
		cg_bind(g, pos);
		cg_emit(g, ALU64_REG(BPF_DIV, R1, R0));
		cg_emit(g, MOV_REG(R0, R1));
		cg_jump(g, JA(), done);
		cg_bind(g, zero);
		cg_emit(g, MOV_IMM(R0, 0));
	}
	cg_bind(g, done);
	g->stack = saved_stack;
}

void cg_percpu_read(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem key = cg_map_key(g, n);

	merge(g, n->map, key, false, n);
	g->scratch = saved;
	g->stack = saved_stack;
}

int cg_loop_callback(struct cg *g, struct node *n, cg_cb_body body,
		     const int args[CG_CB_ARGS])
{
	struct cg_cb *cb = cb_add(g, CB_FUNC, NULL);

	cb->n = n;
	cb->body = body;
	memcpy(cb->args, args, sizeof(cb->args));
	return cb->label;
}

/* long cb(u64 index, void *ctx) of bpf_loop for another file: r6 the
 * index, r7 the context, r9 the scratch buffer (looked up again: a
 * callback is a function of its own), then the body, which returns
 * 0 (go on) or 1 (stop). */
static void emit_func(struct cg *g, const struct cg_cb *cb)
{
	int fail = cg_label(g);
	struct cg_cb c = *cb;	/* the body may add callbacks: CB moves */

	ir_func(&g->ir, c.label);
	cg_bind(g, c.label);
	cg_emit(g, MOV_REG(RCTX, R1));
	cg_emit(g, MOV_REG(R7, R2));
	cg_scratch_lookup(&g->ir, fail, g->c->dscratch);
	c.body(g, c.n, c.args);
	cg_bind(g, fail);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());
}

/* long cb(u64 cpu, {acc0, acc1, key *} *ctx): fold CPU's value. */
static void emit_percpu(struct cg *g, const struct cg_cb *cb)
{
	struct mapinfo *m = cb->m;
	int have = cg_label(g), next = cg_label(g);

	ir_func(&g->ir, cb->label);
	cg_bind(g, cb->label);
	cg_emit(g, MOV_REG(R7, R2));
	cg_emit(g, MOV_REG(R3, R1));
	cg_ld_map(g, R1, RELOC_MAP_FD, m->id);
	cg_emit(g, LDX(BPF_DW, R2, R7, 16));
	cg_emit(g, CALL(BPF_FUNC_map_lookup_percpu_elem));
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), have);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());
	cg_bind(g, have);
	switch (m->agg) {
	case AGG_MIN: case AGG_MAX:
		cg_emit(g, LDX(BPF_DW, R1, R0, 8));
		cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), next);	/* unset */
		cg_emit(g, LDX(BPF_DW, R1, R0, 0));
		cg_minmax_fold(g, m->agg, m->val && m->val->is_signed, R1, R7,
			       R2);
		break;
	default:	/* count, sum: a total; avg: {count, total} */
		for (int off = 0; off < (m->agg == AGG_AVG ? 16 : 8); off += 8) {
			cg_emit(g, LDX(BPF_DW, R1, R0, (int16_t)off));
			cg_emit(g, LDX(BPF_DW, R2, R7, (int16_t)off));
			cg_emit(g, ALU64_REG(BPF_ADD, R2, R1));
			cg_emit(g, STX(BPF_DW, R7, (int16_t)off, R2));
		}
	}
	cg_bind(g, next);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
}

void cg_for_map(struct cg *g, struct node *n)
{
	struct mapinfo *m = n->b->map;
	int vb = g->var_base;
	struct cg_cb *cb = cb_add(g, CB_FOREACH, m);

	cb->n = n;
	if (vb == RFP) {	/* the main program: keep the context */
		g->uses_ctx = true;
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)g->fe_slot, RCTX));
	}
	cg_emit(g, ST_IMM(BPF_DW, vb, (int16_t)(g->fe_slot + 8), 0));
	cg_ld_map(g, R1, RELOC_MAP_FD, m->id);
	ir_ld_func(&g->ir, R2, cb->label);
	cg_emit(g, MOV_REG(R3, vb));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_for_each_map_elem);
	cg_emit(g, LDX(BPF_DW, R1, vb, (int16_t)(g->fe_slot + 8)));
	cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), g->exit_label);
}

/* The entry (key at [r10 + KS], value at [r10 + VS], their addresses)
 * into the loop variable. */
static void load_entry(struct cg *g, struct node *n, int ks, int vs)
{
	struct mapinfo *m = n->b->map;
	struct var *v = n->a->var;
	const struct type *t = v->ty;
	struct mem kdst = { cg_var_reg(g, v), v->slot + t->off[0] };
	struct mem vdst = { cg_var_reg(g, v), v->slot + t->off[1] };
	struct mem src = { R7, 0 }, kaddr = { RFP, ks };

	cg_zero(g, (struct mem){ kdst.base, v->slot }, 0, ty_slot_size(t));
	cg_emit(g, LDX(BPF_DW, R7, RFP, (int16_t)ks));
	if (m->key->kind == TY_TUPLE)
		cg_tuple_copy(g, kdst, t->elem[0], src, m->key);
	else
		cg_copy(g, kdst, t->elem[0], src, m->key);
	if (m->agg != AGG_NONE) {
		merge(g, m, kaddr, true, n);
		cg_emit(g, STX(BPF_DW, vdst.base, (int16_t)vdst.off, R0));
		return;
	}
	cg_emit(g, LDX(BPF_DW, R7, RFP, (int16_t)vs));
	cg_copy(g, vdst, t->elem[1], src, m->val);
}

/* long cb(map, key *, value *, frame *): the loop's body, for one
 * entry. */
static void emit_foreach(struct cg *g, const struct cg_cb *cb)
{
	struct node *n = cb->n;
	int label = cb->label;	/* the body may add callbacks: CB moves */
	int at = g->ir.n, ks, vs;
	int ret0 = cg_label(g), stop = cg_label(g), end = cg_label(g);
	struct ir pro;

	ir_func(&g->ir, label);
	cg_bind(g, label);
	g->var_base = R8;
	g->uses_ctx = false;
	g->exit_label = end;
	g->brk = stop;
	g->cont = ret0;
	ks = cg_stack_alloc(g, n);
	vs = cg_stack_alloc(g, n);
	g->ir.line = n->loc.file ? 0 : n->loc.line;
	load_entry(g, n, ks, vs);
	cg_block(g, n->c);
	g->ir.line = 0;
	cg_bind(g, ret0);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
	cg_bind(g, end);	/* return, exit(): the probe ends */
	cg_emit(g, ST_IMM(BPF_DW, R8, (int16_t)(g->fe_slot + 8), 1));
	cg_bind(g, stop);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());

	ir_init(&pro);
	pro.line = g->ir.v[at].line;
	ir_emit(&pro, MOV_REG(R8, R4));
	ir_emit(&pro, STX(BPF_DW, RFP, (int16_t)ks, R2));
	ir_emit(&pro, STX(BPF_DW, RFP, (int16_t)vs, R3));
	if (g->uses_ctx)
		ir_emit(&pro, LDX(BPF_DW, RCTX, R8, (int16_t)g->fe_slot));
	if (cg_names_reg(g, at, RSCR))
		cg_scratch_lookup(&pro, ret0, g->c->dscratch);
	cg_insert(g, at, &pro, label);
	ir_free(&pro);
}

void cg_callbacks(struct cg *g)
{
	int stack = g->stack, stack_max = g->stack_max;
	int limit = g->stack_limit, scratch = g->scratch;
	int exit_label = g->exit_label, brk = g->brk, cont = g->cont;
	int var_base = g->var_base, cur = g->fe_cur;
	bool uses_ctx = g->uses_ctx;

	/* emitting one may add more: its own callbacks, after it */
	for (int i = 0; i < g->ncbs && !g->ir.overflow; i++) {
		const struct cg_cb *cb = &g->cbs[i];
		int plimit = cb->parent < 0 ? limit : g->cbs[cb->parent].limit;
		int pused = cb->parent < 0 ? stack_max :
			    g->cbs[cb->parent].used;

		g->fe_cur = i;
		g->stack = g->stack_max = 0;
		g->stack_limit = plimit - ALIGN_UP(STACK_RESERVED + pused, 32);
		g->scratch = cb->scratch;
		if (cb->kind == CB_PERCPU)
			emit_percpu(g, cb);
		else if (cb->kind == CB_FUNC)
			emit_func(g, cb);
		else
			emit_foreach(g, cb);
		g->cbs[i].limit = g->stack_limit;	/* (they may have moved) */
		g->cbs[i].used = g->stack_max;
		g->var_base = var_base;
	}
	g->ncbs = 0;
	g->fe_cur = cur;
	g->stack = stack;
	g->stack_max = stack_max;
	g->stack_limit = limit;
	g->scratch = scratch;
	g->exit_label = exit_label;
	g->brk = brk;
	g->cont = cont;
	g->uses_ctx = uses_ctx;
}

bool cg_has_formap(const struct node *n)
{
	if (!n)
		return false;
	if (n->kind == N_FOR && n->b && n->b->kind == N_MAP)
		return true;
	if (cg_has_formap(n->a) || cg_has_formap(n->b) || cg_has_formap(n->c))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (cg_has_formap(n->args[i]))
			return true;
	return false;
}
