/* cg_site.c - the names of the probe that fired: probe, probetype,
 * func and D's probeprov..probename, literals in a program of one probe.
 * In a raw_syscalls merge (probe/tracepoint.c), the row is the part
 * whose system call number the record holds, and the program's first
 * instructions end it for any other call (cg_sys_select()).
 * In a merged uprobe_multi or kprobe_multi program:
 * one program runs for every function (of a file) a block's wildcard
 * matched (probe/uprobe.c, probe/kfunc.c merge them); a block that reads the probe's
 * name (probe, func, probefunc, probefn) takes it from a table: an
 * array map with a row per function, which the link's cookie (the
 * function's index) selects.  The table is built the first time a
 * program reads one, kept in the spec (ps->sites), and made and filled
 * by the loader (run/loader.c) before the programs load. */
#include <string.h>

#include "bpf/cg_int.h"
#include "lang/dprobe.h"

/* The names a row holds, in order (D's four fields each: a merged
 * set's tracepoints differ in module and name too). */
static const enum builtin cols[] = { B_PROBE, B_FUNC, B_PROBEPROV,
				     B_PROBEMOD, B_PROBEFUNC, B_PROBENAME,
				     B_PROBEFN };
#define NCOLS (int)(sizeof(cols) / sizeof(cols[0]))

/* PART's name for column K. */
static const char *name_of(struct compiler *c, const struct probe_spec *part,
			   int k)
{
	if (cols[k] == B_PROBE)
		return part->name;
	if (cols[k] == B_FUNC)
		return part->func ? part->func : "";
	return probe_d_field(&c->arena, part, cols[k] - B_PROBEPROV);
}

/* Column K's width (each name's longest, with its NUL) and offset. */
static int col_width(struct compiler *c, const struct probe_spec *ps, int k,
		     int *off)
{
	int w = 1;

	*off = 0;
	for (int j = 0; j < NCOLS; j++) {
		int wj = 1;

		for (int i = 0; i < ps->nmulti; i++) {
			int l = (int)strlen(name_of(c, &ps->parts[i], j)) + 1;

			if (l > wj)
				wj = l;
		}
		wj = (wj + 7) & ~7;
		if (j == k) {
			w = wj;
			break;
		}
		*off += wj;
	}
	return w;
}

/* The table: a row per function, each column zero-padded. */
static void build(struct compiler *c, struct probe_spec *ps)
{
	int off, row = 0;

	for (int k = 0; k < NCOLS; k++)
		row = col_width(c, ps, k, &off) + off;
	ps->site_row = row;
	ps->sites = arena_alloc(&c->arena, (size_t)row * (size_t)ps->nmulti);
	memset(ps->sites, 0, (size_t)row * (size_t)ps->nmulti);
	for (int k = 0; k < NCOLS; k++) {
		int w = col_width(c, ps, k, &off);

		for (int i = 0; i < ps->nmulti; i++) {
			const char *s = name_of(c, &ps->parts[i], k);
			size_t l = strlen(s);

			memcpy(ps->sites + (size_t)i * (size_t)row + (size_t)off,
			       s, l < (size_t)w ? l : (size_t)w - 1);
		}
	}
}

/* probe, probetype, func, probefunc...: a literal per probe (of a
 * merged program's, those all its functions share); NULL for others. */
static const char *site_literal(struct cg *g, struct node *n)
{
	const struct probe_spec *ps = g->ps->parts ? g->ps->parts : g->ps;

	switch (n->builtin) {
	case B_PROBE: return ps->name;
	case B_PROBETYPE: return probe_type_name(ps);
	case B_FUNC: return ps->func;
	case B_PROBEPROV: case B_PROBEMOD: case B_PROBEFUNC: case B_PROBENAME:
	case B_PROBEFN:
		return probe_d_field(&g->c->arena, ps, n->builtin - B_PROBEPROV);
	default: return NULL;
	}
}

bool cg_site_name(struct cg *g, struct node *n, struct mem dst,
		  const struct type *dt)
{
	struct probe_spec *ps = g->ps;
	int k = 0, off, w, done;
	struct mem key;
	const char *lit;

	while (k < NCOLS && (int)cols[k] != (int)n->builtin)
		k++;
	if (!ps->parts || k == NCOLS) {
		if (!(lit = site_literal(g, n)))
			return false;
		cg_literal(g, dst, dt, lit, strlen(lit));
		return true;
	}
	done = cg_label(g);
	if (!ps->sites)
		build(g->c, ps);
	w = col_width(g->c, ps, k, &off);
	if (w > dt->size)
		w = dt->size;
	cg_zero(g, dst, 0, ty_slot_size(dt));
	if (w <= 1)
		return true;
	/* r0 = the row of the function that fired */
	key = cg_tmp_alloc(g, 8, n);
	g->uses_ctx = true;
	if (ps->sys_nrs) {	/* the part of the call's number */
		cg_emit(g, LDX(BPF_DW, R1, RCTX, SYS_ID_OFF));
		cg_emit(g, STX(BPF_DW, key.base, (int16_t)key.off, R1));
		cg_ld_map(g, R1, RELOC_SYSNR_FD, 0);
		cg_addr_of(g, R2, key);
		cg_call(g, BPF_FUNC_map_lookup_elem);
		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
		cg_emit(g, LDX(BPF_W, R0, R0, 0));
		cg_emit(g, ALU64_IMM(BPF_SUB, R0, 1));
	} else {
		cg_emit(g, MOV_REG(R1, RCTX));
		cg_call(g, BPF_FUNC_get_attach_cookie);
	}
	cg_emit(g, STX(BPF_DW, key.base, (int16_t)key.off, R0));
	cg_ld_map(g, R1, RELOC_SITES_FD, 0);
	cg_addr_of(g, R2, key);
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	/* its name, but the last byte of DST (a NUL already) */
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, off));
	cg_addr_of(g, R1, dst);
	cg_emit(g, MOV_IMM(R2, w - 1));
	g->ctx_read = true;	/* a map's value, sonde's own */
	cg_call(g, BPF_FUNC_probe_read_kernel);
	g->ctx_read = false;
	cg_bind(g, done);
	return true;
}

void cg_sys_select(struct ir *pro, int exit_label, bool save_ctx)
{
	/* r0 = the call's number, from the raw_syscalls record; through
	 * fp-8, which nothing of the body uses before its prologue */
	ir_emit(pro, LDX(BPF_DW, R0, R1, SYS_ID_OFF));
	if (save_ctx)
		ir_emit(pro, MOV_REG(RCTX, R1));
	ir_jump(pro, JMP_IMM(BPF_JGE, R0, SYS_NR_MAX), exit_label);
	ir_emit(pro, STX(BPF_DW, RFP, -8, R0));
	ir_ld64(pro, R1, 0, RELOC_SYSNR_FD, 0);
	ir_emit(pro, MOV_REG(R2, RFP));
	ir_emit(pro, ALU64_IMM(BPF_ADD, R2, -8));
	ir_emit(pro, CALL(BPF_FUNC_map_lookup_elem));
	ir_jump(pro, JMP_IMM(BPF_JEQ, R0, 0), exit_label);
	ir_emit(pro, LDX(BPF_W, R0, R0, 0));
	ir_jump(pro, JMP_IMM(BPF_JEQ, R0, 0), exit_label);
}
