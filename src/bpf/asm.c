/* asm.c - labels to offsets, and the --dump=bpf listing. */
#include "bpf/asm.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_ld64(const struct ir_insn *x)
{
	return x->in.code == (BPF_LD | BPF_DW | BPF_IMM);
}

/* The verifier rejects unreachable instructions, and cg leaves some
 * behind (code after exit() or return, the dead arm of a constant
 * condition).  Drop them, and jumps to the next instruction, keeping
 * labels on the surviving insns. */
static void drop_unreachable(struct ir *ir)
{
	char *reach = xcalloc((size_t)ir->n + 1, 1);
	char *noop = xcalloc((size_t)ir->n + 1, 1);
	int *work = xmalloc(sizeof(int) * ((size_t)ir->n + 1));
	int *newidx = xmalloc(sizeof(int) * ((size_t)ir->n + 1));
	int nw = 0, k = 0;

	if (ir->n)
		work[nw++] = 0;
	while (nw) {
		int i = work[--nw];
		const struct ir_insn *x;
		int cls, op, next[3], nn = 0;

		if (i < 0 || i >= ir->n || reach[i])
			continue;
		reach[i] = 1;
		x = &ir->v[i];
		cls = BPF_CLASS(x->in.code);
		op = BPF_OP(x->in.code);
		if (is_ld64(x)) {
			if (i + 1 < ir->n)
				reach[i + 1] = 1;
			next[nn++] = i + 2;
			if (x->target >= 0)	/* a callback */
				next[nn++] = ir->label_at[x->target];
		} else if ((cls == BPF_JMP || cls == BPF_JMP32) && op == BPF_EXIT) {
			/* nothing follows */
		} else if ((cls == BPF_JMP || cls == BPF_JMP32) && op == BPF_JA) {
			next[nn++] = x->target >= 0 ? ir->label_at[x->target]
						    : i + 1 + x->in.off;
			noop[i] = next[0] == i + 1;
		} else if ((cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL) {
			next[nn++] = i + 1;
			next[nn++] = x->target >= 0 ? ir->label_at[x->target]
						    : i + 1 + x->in.off;
		} else if (cls == BPF_JMP && x->target >= 0) {	/* bpf2bpf */
			next[nn++] = i + 1;
			next[nn++] = ir->label_at[x->target];
		} else {
			next[nn++] = i + 1;
		}
		for (int j = 0; j < nn; j++)
			if (next[j] >= 0 && next[j] < ir->n && !reach[next[j]])
				work[nw++] = next[j];
	}
	for (int i = 0; i < ir->n; i++) {
		newidx[i] = k;
		if (reach[i] && !noop[i])
			ir->v[k++] = ir->v[i];
	}
	newidx[ir->n] = k;
	for (int l = 0; l < ir->nlabels; l++)
		if (ir->label_at[l] >= 0)
			ir->label_at[l] = newidx[ir->label_at[l]];
	ir->n = k;
	free(noop);
	free(reach);
	free(work);
	free(newidx);
}

/* Whether X reads register R. */
static bool reads_reg(const struct ir_insn *x, int r)
{
	const struct bpf_insn *in = &x->in;
	int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	bool x_src = BPF_SRC(in->code) == BPF_X;

	switch (cls) {
	case BPF_ALU: case BPF_ALU64:
		/* BPF_END's source bit picks the byte order, not a register */
		return (op != BPF_MOV && in->dst_reg == r) ||
		       (x_src && op != BPF_END && op != BPF_NEG &&
			in->src_reg == r);
	case BPF_LDX:
		return in->src_reg == r;
	case BPF_ST:
		return in->dst_reg == r;
	case BPF_STX:
		return in->dst_reg == r || in->src_reg == r;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL)
			return r >= BPF_REG_1 && r <= BPF_REG_5;
		if (op == BPF_EXIT)
			return r == BPF_REG_0;
		if (op == BPF_JA)
			return false;
		return in->dst_reg == r || (x_src && in->src_reg == r);
	case BPF_LD:	/* ld_imm64 reads nothing; ld_abs/ind read r6 */
		return BPF_MODE(in->code) != BPF_IMM && r == BPF_REG_6;
	default:
		return true;
	}
}

/* Whether X writes register R (a call clobbers r0-r5). */
static bool writes_reg(const struct ir_insn *x, int r)
{
	const struct bpf_insn *in = &x->in;
	int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	switch (cls) {
	case BPF_ALU: case BPF_ALU64: case BPF_LDX:
		return in->dst_reg == r;
	case BPF_LD:
		return in->dst_reg == r || r == BPF_REG_0;
	case BPF_STX:	/* atomics with BPF_FETCH write src or r0 */
		return BPF_MODE(in->code) == BPF_ATOMIC &&
		       (in->src_reg == r || r == BPF_REG_0);
	case BPF_JMP: case BPF_JMP32:
		return op == BPF_CALL && r <= BPF_REG_5;
	default:
		return false;
	}
}

/* cg saves the context in r6 at entry whenever the body reads it.  When
 * every read comes before anything changes r1 or branches (an argument
 * read first thing, as in most probes), read r1 instead and drop the
 * save: one instruction less. */
static void ctx_in_r1(struct ir *ir)
{
	char *entered;
	int end = 1;

	if (ir->n < 2 || ir->v[0].in.code != (BPF_ALU64 | BPF_MOV | BPF_X) ||
	    ir->v[0].in.dst_reg != BPF_REG_6 ||
	    ir->v[0].in.src_reg != BPF_REG_1)
		return;
	entered = xcalloc((size_t)ir->n + 1, 1);
	for (int l = 0; l < ir->nlabels; l++)
		if (ir->label_at[l] >= 0)
			entered[ir->label_at[l]] = 1;
	for (int i = 0; i < ir->n; i++) {
		const struct ir_insn *x = &ir->v[i];
		int cls = BPF_CLASS(x->in.code);

		if (x->target < 0 && (cls == BPF_JMP || cls == BPF_JMP32) &&
		    BPF_OP(x->in.code) != BPF_CALL &&
		    BPF_OP(x->in.code) != BPF_EXIT) {
			long to = i + 1L + x->in.off;

			if (to >= 0 && to <= ir->n)
				entered[to] = 1;
		}
	}
	/* The prefix [1, end): straight-line code with r1 and r6 intact. */
	while (end < ir->n && !entered[end]) {
		const struct ir_insn *x = &ir->v[end];
		int cls = BPF_CLASS(x->in.code);

		if (cls == BPF_JMP || cls == BPF_JMP32 ||
		    writes_reg(x, BPF_REG_1) || writes_reg(x, BPF_REG_6))
			break;
		end += is_ld64(x) ? 2 : 1;
	}
	free(entered);
	for (int i = end; i < ir->n; i++) {
		if (reads_reg(&ir->v[i], BPF_REG_6))
			return;
		if (is_ld64(&ir->v[i]))
			i++;
	}
	for (int i = 1; i < end; i++) {
		struct bpf_insn *in = &ir->v[i].in;

		if (is_ld64(&ir->v[i])) {
			i++;
			continue;
		}
		if (in->src_reg == BPF_REG_6 && reads_reg(&ir->v[i], BPF_REG_6))
			in->src_reg = BPF_REG_1;
		if (in->dst_reg == BPF_REG_6 && reads_reg(&ir->v[i], BPF_REG_6))
			in->dst_reg = BPF_REG_1;
	}
	memmove(ir->v, ir->v + 1, sizeof(*ir->v) * (size_t)(ir->n - 1));
	ir->n--;
	for (int l = 0; l < ir->nlabels; l++)
		if (ir->label_at[l] > 0)
			ir->label_at[l]--;
}

/* Whether IN jumps (ja or conditional: not a call, not exit). */
static bool is_jump(const struct bpf_insn *in)
{
	int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_CALL &&
	       op != BPF_EXIT;
}

/* Whether X is a jump to a label. */
static bool label_jump(const struct ir_insn *x)
{
	return x->target >= 0 && is_jump(&x->in);
}

/* Insert, before index P, an island: `ja TARGET`, preceded by `ja +1`
 * when the code before P falls through to it.  Labels and raw jumps
 * past P move along, and so does the index *JUMP.  Returns the
 * island's new label. */
static int insert_island(struct ir *ir, int p, int target, int *jump)
{
	const struct ir_insn *prev = &ir->v[p - 1];
	int op = BPF_OP(prev->in.code), cls = BPF_CLASS(prev->in.code);
	bool falls = !((cls == BPF_JMP || cls == BPF_JMP32) &&
		       (op == BPF_EXIT || op == BPF_JA));
	int k = falls ? 2 : 1, label, line = ir->v[p].line;

	for (int i = 0; i < ir->n; i++) {
		struct ir_insn *x = &ir->v[i];

		if (x->target < 0 && is_jump(&x->in)) {
			long to = i + 1L + x->in.off;

			if (i < p && to >= p)
				x->in.off = (int16_t)(x->in.off + k);
			else if (i >= p && to < p)
				x->in.off = (int16_t)(x->in.off - k);
		}
		if (is_ld64(x))
			i++;
	}
	for (int l = 0; l < ir->nlabels; l++)
		if (ir->label_at[l] >= p)
			ir->label_at[l] += k;
	while (ir->n + k > ir->cap) {
		ir->cap = ir->cap ? ir->cap * 2 : 64;
		ir->v = xrealloc(ir->v, sizeof(*ir->v) * (size_t)ir->cap);
	}
	memmove(ir->v + p + k, ir->v + p, sizeof(*ir->v) * (size_t)(ir->n - p));
	ir->n += k;
	for (int j = 0; j < k; j++) {
		struct ir_insn *x = &ir->v[p + j];

		memset(x, 0, sizeof(*x));
		x->in = JA();
		x->line = line;
		x->reloc = RELOC_NONE;
		x->target = -1;
	}
	if (falls)
		ir->v[p].in.off = 1;
	if (*jump >= p)
		*jump += k;
	label = ir_label(ir);
	ir->label_at[label] = p + k - 1;
	ir->v[p + k - 1].target = target;
	return label;
}

/* A jump reaches 32767 instructions either way.  One that goes further
 * (a long clause jumping to its epilogue) goes through islands, each a
 * `ja` placed within reach, between the jump and its target, shared by
 * the jumps to that target that can reach it.  Past a bound on their
 * number, the jumps stay as they are and asm_resolve() says so. */
static void relax_far_jumps(struct ir *ir)
{
	struct island { int label, target; } *isl = NULL;
	int nisl = 0, cap = 0, limit = ir->n / 1000 + 64;
	bool again = true;

	while (again) {
		again = false;
		for (int i = 0; i < ir->n && !again; i++) {
			struct ir_insn *x = &ir->v[i];
			long to, off, p;
			int via = -1;

			if (is_ld64(x)) {
				i++;
				continue;
			}
			if (!label_jump(x))
				continue;
			to = ir->label_at[x->target];
			off = to - (i + 1L);
			if (to < 0 || (off >= SHRT_MIN && off <= SHRT_MAX))
				continue;
			for (int j = 0; j < nisl && via < 0; j++) {
				long q = ir->label_at[isl[j].label];
				long d = q - (i + 1L);

				if (isl[j].target == x->target &&
				    d >= SHRT_MIN + 64 && d <= SHRT_MAX - 64 &&
				    (off > 0 ? q > i && q < to : q < i && q > to))
					via = isl[j].label;
			}
			if (via >= 0) {
				x->target = via;
				continue;
			}
			if (nisl == limit)
				break;
			p = off > 0 ? i + 1L + 32000 : i - 32000L;
			if (is_ld64(&ir->v[p - 1]))
				p++;
			if (nisl == cap) {
				cap = cap ? cap * 2 : 16;
				isl = xrealloc(isl, sizeof(*isl) * (size_t)cap);
			}
			isl[nisl].target = x->target;
			isl[nisl].label = insert_island(ir, (int)p, x->target,
							&i);
			ir->v[i].target = isl[nisl++].label;
			again = true;
		}
	}
	free(isl);
}

int asm_resolve(struct compiler *c, struct ir *ir, struct prog_spec *ps)
{
	int nrel = 0;

	if (!ir->overflow) {
		drop_unreachable(ir);
		ctx_in_r1(ir);
		relax_far_jumps(ir);
	}
	if (ir->overflow || ir->n > MAX_INSNS) {
		diag_error(&c->diag, ps->probe.loc, E_LIMIT,
			   "probe %s compiles to %s%d BPF instructions (limit %d)",
			   ps->probe.name, ir->overflow ? "more than " : "",
			   ir->overflow ? MAX_INSNS : ir->n, MAX_INSNS);
		return -1;
	}
	ps->insns = arena_alloc(&c->arena, sizeof(*ps->insns) * (size_t)ir->n);
	ps->line = arena_alloc(&c->arena, sizeof(int) * (size_t)ir->n);
	for (int i = 0; i < ir->n; i++)
		if (ir->v[i].reloc != RELOC_NONE)
			nrel++;
	ps->relocs = arena_alloc(&c->arena, sizeof(*ps->relocs) *
				 (size_t)(nrel ? nrel : 1));
	ps->nrelocs = 0;
	for (int i = 0; i < ir->n; i++) {
		struct ir_insn *x = &ir->v[i];

		ps->insns[i] = x->in;
		ps->line[i] = x->line;
		if (x->target >= 0) {
			int to = ir->label_at[x->target];
			long off = (long)to - (i + 1);

			if (to < 0) {
				diag_error(&c->diag, ps->probe.loc, E_LIMIT,
					   "internal error: unbound label %d",
					   x->target);
				return -1;
			}
			if ((BPF_OP(x->in.code) == BPF_CALL &&
			     BPF_CLASS(x->in.code) == BPF_JMP) || is_ld64(x)) {
				ps->insns[i].imm = (int32_t)off;
				off = 0;
			}
			if (off < SHRT_MIN || off > SHRT_MAX) {
				diag_error(&c->diag, ps->probe.loc, E_LIMIT,
					   "probe %s: a jump spans %ld instructions (limit %d); split the block",
					   ps->probe.name, off, SHRT_MAX);
				return -1;
			}
			ps->insns[i].off = (int16_t)off;
		}
		if (x->reloc != RELOC_NONE) {
			struct bpf_reloc *r = &ps->relocs[ps->nrelocs++];

			r->insn = i;
			r->kind = x->reloc;
			r->arg = x->reloc_arg;
		}
	}
	ps->ninsns = ir->n;
	ps->nfuncs = ir->nfuncs;
	ps->nglobal = ir->nglobal;
	ps->funcs = arena_alloc(&c->arena, sizeof(int) *
				(size_t)(ir->nfuncs ? ir->nfuncs : 1));
	for (int f = 0; f < ir->nfuncs; f++)
		ps->funcs[f] = ir->label_at[ir->funcs[f]];
	return 0;
}

/* The source line LINE (1-based) without its newline. */
/* Line LINE of the source, found from the start of the line of FROM
 * when LINE is not before it: counting from the top for every program
 * made dumping a script of thousands of probes quadratic. */
static void source_line(const struct compiler *c, struct loc from, int line,
			const char **s, int *len)
{
	const char *p = c->src, *end = c->src + c->srclen;
	int l = 1;

	if (!from.file && from.line > 0 && from.line <= line && from.col > 0 &&
	    from.off - (from.col - 1) >= 0 &&
	    (size_t)from.off <= c->srclen) {
		p = c->src + from.off - (from.col - 1);
		l = from.line;
	}

	while (p < end && l < line) {
		if (*p++ == '\n')
			l++;
	}
	*s = p;
	while (p < end && *p != '\n')
		p++;
	*len = (int)(p - *s);
	while (*len > 0 && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*len)--;
	}
}

static const char *prog_type_name(enum bpf_prog_type t)
{
	switch (t) {
	case BPF_PROG_TYPE_RAW_TRACEPOINT: return "raw_tracepoint";
	case BPF_PROG_TYPE_PERF_EVENT: return "perf_event";
	case BPF_PROG_TYPE_TRACEPOINT: return "tracepoint";
	case BPF_PROG_TYPE_KPROBE: return "kprobe";
	case BPF_PROG_TYPE_TRACING: return "tracing";
	default: return "?";
	}
}

void asm_dump(FILE *f, const struct compiler *c, const struct prog_spec *ps)
{
	int last = -1, r = 0;
	char buf[160];

	fprintf(f, "%s: %s, %d insns\n", ps->probe.name,
		prog_type_name(ps->load.type), ps->ninsns);
	for (int i = 0; i < ps->ninsns;) {
		const struct bpf_reloc *rel = NULL;
		int n;

		while (r < ps->nrelocs && ps->relocs[r].insn < i)
			r++;
		if (r < ps->nrelocs && ps->relocs[r].insn == i)
			rel = &ps->relocs[r];
		if (ps->line[i] && ps->line[i] != last) {
			const char *s;
			int len;

			source_line(c, ps->probe.loc, ps->line[i], &s, &len);
			fprintf(f, "; %.*s  (line %d)\n", len > 100 ? 100 : len, s,
				ps->line[i]);
			last = ps->line[i];
		}
		n = disasm_insn(buf, sizeof(buf), &ps->insns[i], i, rel);
		fprintf(f, "%5d: %s\n", i, buf);
		i += n;
	}
	fputc('\n', f);
}

/* The most conditional jumps on one path through a function of PS that
 * never jumps back: the verifier keeps each such jump's other side
 * pending while it follows the first, and gives up past 8,192. */
int asm_branch_depth(const struct prog_spec *ps)
{
	int *best = xcalloc((size_t)ps->ninsns + 2, sizeof(int));
	int *end = xcalloc((size_t)ps->ninsns + 1, sizeof(int));
	int deepest = 0, stop = ps->ninsns;

	/* end[i]: where the function holding insn i ends (first marked
	 * -1 where a function starts) */
	for (int f = 0; f < ps->nfuncs; f++)
		if (ps->funcs[f] >= 0 && ps->funcs[f] < ps->ninsns)
			end[ps->funcs[f]] = -1;
	for (int i = ps->ninsns - 1; i >= 0; i--) {
		bool starts = end[i] < 0;

		end[i] = stop;
		if (starts)
			stop = i;
	}
	for (int i = ps->ninsns - 1; i >= 0; i--) {
		const struct bpf_insn *in = &ps->insns[i];
		int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
		long to = i + 1L + in->off;
		int next = i + 1 < end[i] ? best[i + 1] : 0;
		int far = to > i && to < end[i] ? best[to] : 0;

		if (in->code == (BPF_LD | BPF_DW | BPF_IMM))
			best[i] = i + 2 < end[i] ? best[i + 2] : 0;
		else if ((cls == BPF_JMP || cls == BPF_JMP32) && op == BPF_EXIT)
			best[i] = 0;
		else if (is_jump(in) && op == BPF_JA)
			best[i] = cls == BPF_JMP ? far : 0;
		else if (is_jump(in))
			best[i] = 1 + (next > far ? next : far);
		else
			best[i] = next;
		if (best[i] > deepest)
			deepest = best[i];
	}
	free(end);
	free(best);
	return deepest;
}
