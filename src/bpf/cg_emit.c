/* cg_emit.c - the code generator's lowest layer, under every other cg
 * file: instructions and labels into the IR, stack and scratch memory,
 * zeroing, the loss counters and counted memory reads.  It calls
 * nothing of cg's above it. */
#include "bpf/cg_int.h"

#include <stdlib.h>
#include <string.h>

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

/* In a long body, map lookups call one subprogram that calls the helper:
 * a helper call the verifier sees with one map it replaces by inline
 * code, and each such patch moves the whole program (quadratic). */
static const char *helper_name(int helper);

/* Helpers that read the kernel's memory, or give kernel addresses. */
static bool kernel_helper(int helper)
{
	switch (helper) {
	case BPF_FUNC_probe_read: case BPF_FUNC_probe_read_str:
	case BPF_FUNC_probe_read_kernel: case BPF_FUNC_probe_read_kernel_str:
	case BPF_FUNC_get_current_task: case BPF_FUNC_get_current_task_btf:
	case BPF_FUNC_d_path: case BPF_FUNC_snprintf_btf:
	case BPF_FUNC_get_func_ip: case BPF_FUNC_get_func_arg:
	case BPF_FUNC_task_storage_get:
		return true;
	default:
		return false;
	}
}

void cg_call(struct cg *g, int helper)
{
	/* sonde serve, a user without kernel rights: the probe's own
	 * context is all of the kernel a program may read; a read of
	 * either space reads the user's (a kernel address then fails) */
	if (g->c->restricted && helper == BPF_FUNC_probe_read)
		helper = BPF_FUNC_probe_read_user;
	else if (g->c->restricted && helper == BPF_FUNC_probe_read_str)
		helper = BPF_FUNC_probe_read_user_str;
	if (g->c->restricted && kernel_helper(helper) && !g->ctx_read &&
	    !g->failed) {
		diag_error(&g->c->diag, g->ps->loc, E_POLICY,
			   "probe %s reads the kernel's memory (%s): sonde serve gives this user only the probe's own arguments and user memory",
			   g->ps->name, helper_name(helper));
		g->failed = true;
	}
	if (helper == BPF_FUNC_map_lookup_elem && g->lookup_label > 0) {
		ir_call(&g->ir, g->lookup_label);
		g->lookup_used = true;
	}
	else
		cg_emit(g, CALL(helper));
}

/* An 8-byte stack slot; callers give slots back by restoring g->stack. */
int cg_stack_alloc(struct cg *g, struct node *at)
{
	g->stack += 8;
	if (g->stack > g->stack_limit - STACK_RESERVED) {
		if (g->tmp_on_stack)	/* temporaries took it: retry */
			g->retry = true;
		else if (!g->failed)
			diag_error(&g->c->diag, at ? at->loc : g->ps->loc, E_STACK,
				   "probe %s needs more than %d bytes of BPF stack for its integer variables and temporaries",
				   g->ps->name, g->stack_limit);
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

	if (!g->tmp_on_stack || g->stack + sz > g->stack_limit - STACK_RESERVED)
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

int cg_size_code(int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

/* N bytes from SRC to DST through r1, in the widest loads and stores
 * both places' alignment allows (the verifier wants the stack's
 * accesses aligned). */
void cg_move(struct cg *g, struct mem dst, struct mem src, int n)
{
	for (int i = 0; i < n;) {
		int c = 8;

		while (c > 1 && (i + c > n || ((dst.off + i) & (c - 1)) ||
				 ((src.off + i) & (c - 1))))
			c /= 2;
		cg_emit(g, LDX(cg_size_code(c), R1, src.base,
			       (int16_t)(src.off + i)));
		cg_emit(g, STX(cg_size_code(c), dst.base,
			       (int16_t)(dst.off + i), R1));
		i += c;
	}
}

/* Zero bytes [FROM, TO) of M with the widest stores that fit. */
void cg_zero(struct cg *g, struct mem m, int from, int to)
{
	while (from < to) {
		int n = to - from, sz, at = m.off + from;

		if (n >= 8 && !(at & 7))
			n = 8, sz = BPF_DW;
		else if (n >= 4 && !(at & 3))
			n = 4, sz = BPF_W;
		else if (n >= 2 && !(at & 1))
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
	case BPF_FUNC_map_update_elem: return "map_update_elem";
	case BPF_FUNC_map_delete_elem: return "map_delete_elem";
	case BPF_FUNC_get_stackid: return "get_stackid";
	case BPF_FUNC_send_signal: return "send_signal";
	case BPF_FUNC_get_current_task: return "get_current_task";
	case BPF_FUNC_d_path: return "d_path";
	case CG_DIVZERO: return "divide";	/* no helper: x / 0 */
	default: return "helper";
	}
}

/* The site of HELPER at L, added if new: a site is its place in the
 * script and its helper, so the probes of a wildcard share one, and a
 * recompiled probe finds its own again. */
static int helper_site(struct compiler *c, int helper, struct loc l)
{
	const char *name = helper_name(helper);
	int site;

	for (site = 0; site < c->nhelper_sites; site++)
		if (c->helper_sites[site].loc.off == l.off &&
		    c->helper_sites[site].loc.len == l.len &&
		    c->helper_sites[site].loc.file == l.file &&
		    c->helper_sites[site].helper == name)
			return site;
	if (c->nhelper_sites == c->helper_sites_cap) {
		c->helper_sites_cap = c->helper_sites_cap ?
				      c->helper_sites_cap * 2 : 8;
		c->helper_sites = xrealloc(c->helper_sites,
					   sizeof(*c->helper_sites) *
					   (size_t)c->helper_sites_cap);
	}
	c->helper_sites[site].loc = l;
	c->helper_sites[site].helper = name;
	c->nhelper_sites++;
	return site;
}

/* -k: after a call of HELPER for the expression AT, when r0 < 0, send
 * the record {EVID_HELPER_ERROR, site, r0} on the ring buffer (a full
 * one counts as a lost event), as bpftrace does.  Memory reads are
 * checked with -kk only: their failure already reads as zero or an
 * empty string.  r0 is kept; r1-r5 are clobbered (as by the call). */
void cg_check_helper(struct cg *g, int helper, struct node *at)
{
	struct compiler *c = g->c;
	bool read = helper == BPF_FUNC_probe_read ||
		    helper == BPF_FUNC_probe_read_str ||
		    (helper >= BPF_FUNC_probe_read_user &&
		     helper <= BPF_FUNC_probe_read_kernel_str);

	if (c->check_helpers >= (read ? 2 : 1))
		cg_report_helper(g, helper, at);
}

void cg_report_helper(struct cg *g, int helper, struct node *at)
{
	struct compiler *c = g->c;
	int saved = g->scratch, saved_stack = g->stack, ok, sent;
	struct mem rec;

	ok = cg_label(g);
	sent = cg_label(g);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	rec = cg_tmp_alloc(g, 24, at);
	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off,
			  (int32_t)EVID_HELPER_ERROR));
	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)(rec.off + 8),
			  helper_site(c, helper, at ? at->loc : g->ps->loc)));
	cg_emit(g, STX(BPF_DW, rec.base, (int16_t)(rec.off + 16), R0));
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	cg_addr_of(g, R2, rec);
	cg_emit(g, MOV_IMM(R3, 24));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), sent);
	cg_count_stat(g, STATS_LOST);
	cg_bind(g, sent);
	cg_emit(g, LDX(BPF_DW, R0, rec.base, (int16_t)(rec.off + 16)));
	cg_bind(g, ok);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* Call HELPER, a memory read for the expression AT, checked with -kk;
 * in D, a read that fails is a fault at its address (r3). */
void cg_read_call(struct cg *g, int helper, struct node *at)
{
	int ok = cg_label(g);

	if (g->faults)
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)(g->fault_slot + 8), R3));
	cg_call(g, helper);
	cg_check_helper(g, helper, at);
	if (!g->faults)
		return;
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_fault(g, DFLT_BADADDR);
	cg_bind(g, ok);
}

void cg_fault(struct cg *g, int flt)
{
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)g->fault_slot,
			  flt | g->action << 8));
	cg_jump(g, JA(), g->fault_label);
}
