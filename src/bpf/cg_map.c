/* cg_map.c - map keys, reads, writes, increments and aggregations.
 *
 * Aggregations use per-CPU hash maps: a probe updates its CPU's value in
 * place, and user space merges the CPUs when it prints.  hist() and
 * lhist() put the bucket index at the end of the key, so a histogram is
 * one map entry per non-empty bucket.
 */
#include "bpf/cg_int.h"

#include <errno.h>
#include <string.h>

#include "lang/lex.h"

/* Store the key of @m[...] (or the zero key of @m) at KEY; a
 * histogram's bucket index, the key's last word, is left alone. */
static void fill_key(struct cg *g, struct node *n, struct mem key)
{
	struct mapinfo *m = n->map;

	if (!m->key) {
		if (!agg_bucketed(m->agg))
			cg_emit(g, ST_IMM(BPF_DW, key.base, (int16_t)key.off, 0));
	} else if (n->nargs == 1) {
		cg_store(g, n->args[0], key, m->key);
	} else {
		/* equal keys must be equal bytes: padding and the rest of
		 * a narrow integer's slot (D's keys keep their size) */
		if (!cg_tuple_plain(m->key))
			cg_zero(g, key, 0, ty_slot_size(m->key));
		for (int i = 0; i < n->nargs; i++)
			cg_tuple_elem_store(g, n->args[i], key, m->key, i);
	}
}

struct mem cg_map_key(struct cg *g, struct node *n)
{
	struct mem key = cg_tmp_alloc(g, n->map->key_size, n);

	fill_key(g, n, key);
	return key;
}

static void lookup(struct cg *g, struct mapinfo *m, struct mem key)
{
	cg_ld_map(g, R1, RELOC_MAP_FD, m->id);
	cg_addr_of(g, R2, key);
	cg_call(g, BPF_FUNC_map_lookup_elem);
}

/* r0 = bpf_map_update_elem(m, key, val, flags) for AT; count a drop
 * when the map is full. */
static void update(struct cg *g, struct mapinfo *m, struct mem key,
		   struct mem val, int flags, struct node *at)
{
	int ok = cg_label(g);

	cg_ld_map(g, R1, RELOC_MAP_FD, m->id);
	cg_addr_of(g, R2, key);
	cg_addr_of(g, R3, val);
	cg_emit(g, MOV_IMM(R4, flags));
	cg_call(g, BPF_FUNC_map_update_elem);
	cg_check_helper(g, BPF_FUNC_map_update_elem, at);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, -E2BIG), ok);
	cg_count_stat(g, STATS_MAP_DROPS + m->id);
	cg_bind(g, ok);
}

/* Read @m[k] into DST as type DT; a missing key reads as zero. */
void cg_map_read(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mapinfo *m = n->map;
	struct mem key, val = { R0, 0 };
	int missing = cg_label(g), done = cg_label(g);

	if (m->agg != AGG_NONE) {	/* an integer, merged over the CPUs */
		cg_percpu_read(g, n);
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
		return;
	}
	key = cg_map_key(g, n);
	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), missing);
	cg_copy(g, dst, dt, val, m->val);
	cg_jump(g, JA(), done);
	cg_bind(g, missing);
	cg_zero(g, dst, 0, ty_slot_size(dt));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* r0 = @m[k], an integer; a missing key reads as zero, which is r0
 * already when the lookup finds nothing. */
void cg_map_read_int(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem key;
	int done = cg_label(g);

	if (n->map->agg != AGG_NONE) {	/* merged over the CPUs */
		cg_percpu_read(g, n);
		return;
	}
	key = cg_map_key(g, n);

	lookup(g, n->map, key);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	cg_emit(g, LDX(BPF_DW, R0, R0, 0));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_map_addr(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mapinfo *m = n->map;
	struct mem key = cg_map_key(g, n), zero;
	int done = cg_label(g);

	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), done);
	zero = cg_tmp_alloc(g, ty_slot_size(m->val), n);
	cg_zero(g, zero, 0, ty_slot_size(m->val));
	/* another CPU may have put it there first: that one is kept */
	update(g, m, key, zero, BPF_NOEXIST, n);
	lookup(g, m, key);
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* r0 = 1 if @m[k] is in the map, else 0 (has_key()). */
void cg_map_has_key(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem key = cg_map_key(g, n);
	int done = cg_label(g);

	lookup(g, n->map, key);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* find(@m, key, $v): r0 = 1 and the value copied into DST (of type
 * DT) if @m[k] is in the map, else r0 = 0 and DST as it was. */
void cg_map_find(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem key = cg_map_key(g, n);
	struct mem val = { R0, 0 };
	int done = cg_label(g);

	lookup(g, n->map, key);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	cg_copy(g, dst, dt, val, n->map->val);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

int cg_binop_of(int assign_op)
{
	switch (assign_op) {
	case T_ADD_ASSIGN: return T_PLUS;
	case T_SUB_ASSIGN: return T_MINUS;
	case T_MUL_ASSIGN: return T_STAR;
	case T_DIV_ASSIGN: return T_SLASH;
	case T_MOD_ASSIGN: return T_PERCENT;
	case T_AND_ASSIGN: return T_AMP;
	case T_OR_ASSIGN: return T_PIPE;
	case T_XOR_ASSIGN: return T_CARET;
	case T_SHL_ASSIGN: return T_SHL;
	default: return T_SHR;
	}
}

void cg_map_assign(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mapinfo *m = n->a->map;
	struct mem key, val;

	val = cg_tmp_alloc(g, m->value_size, n);
	if (n->op == T_ASSIGN) {
		cg_store(g, n->b, val, m->val);
	} else {
		/* @m[k] op= e reads the old value (0 if none) first. */
		cg_assigned(g, n, m->val);
		cg_norm(g, R0, m->val);
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)val.off, R0));
	}
	key = cg_map_key(g, n->a);
	update(g, m, key, val, BPF_ANY, n);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* @m[k]++ and friends: r0 = the old (postfix) or new (prefix) value. */
void cg_map_incdec(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mapinfo *m = n->a->map;
	struct mem key = cg_map_key(g, n->a);
	struct mem val = cg_tmp_alloc(g, 8, n);
	int result = cg_stack_alloc(g, n);
	int missing = cg_label(g), store = cg_label(g);

	lookup(g, m, key);
	cg_emit(g, MOV_IMM(R1, 0));
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), missing);
	cg_emit(g, LDX(BPF_DW, R1, R0, 0));
	cg_bind(g, missing);
	cg_emit(g, MOV_REG(R2, R1));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, n->op == T_INC ? ty_step(m->val) :
			     -ty_step(m->val)));
	cg_norm(g, R2, m->val);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)result, n->prefix ? R2 : R1));
	/* An existing entry is updated in place, a new one inserted. */
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), store);
	cg_emit(g, STX(BPF_DW, R0, 0, R2));
	{
		int done = cg_label(g);

		cg_jump(g, JA(), done);
		cg_bind(g, store);
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)val.off, R2));
		update(g, m, key, val, BPF_ANY, n);
		cg_bind(g, done);
	}
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)result));
	g->scratch = saved;
	g->stack = saved_stack;
}

/* delete(@m[k]).  A histogram holds a key per bucket (the bucket index
 * its last word): every bucket of the key goes, in a loop counted in
 * r7, which the helper keeps and the verifier can bound (bpftrace 0.17
 * deletes one bucket and prints the rest). */
static void map_delete(struct cg *g, struct node *n, bool warn)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mapinfo *m = n->map;
	struct mem key = cg_map_key(g, n);
	bool hist = agg_bucketed(m->agg);
	int top = cg_label(g);
	int16_t boff = (int16_t)(key.off + m->key_size - 8);

	if (hist) {
		cg_emit(g, MOV_IMM(R7, 0));
		cg_bind(g, top);
		cg_emit(g, STX(BPF_DW, key.base, boff, R7));
	}
	cg_ld_map(g, R1, RELOC_MAP_FD, m->id);
	cg_addr_of(g, R2, key);
	cg_call(g, BPF_FUNC_map_delete_elem);
	/* -k, or 0.26's delete() whose value is not used (sema marks the
	 * call): not the buckets a histogram never had */
	if (!hist && warn)
		cg_report_helper(g, BPF_FUNC_map_delete_elem, n);
	else if (!hist)
		cg_check_helper(g, BPF_FUNC_map_delete_elem, n);
	if (hist) {
		int nb = m->agg == AGG_HIST ? hist_nbuckets(m->hist_bits) :
			 m->agg == AGG_QUANT ? DQUANT_NBUCKETS :
			 m->agg == AGG_LLQUANT ? llq_nbuckets(m) :
			 (int)((m->lh_max - m->lh_min) / m->lh_step + 2);

		/* --metrics: the sum slot after the buckets too */
		if ((m->agg == AGG_HIST || m->agg == AGG_LHIST) &&
		    g->c->hist_sums)
			nb++;
		cg_emit(g, ALU64_IMM(BPF_ADD, R7, 1));
		cg_jump(g, JMP_IMM(BPF_JLT, R7, nb), top);
	}
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_map_delete_call(struct cg *g, struct node *n)
{
	int gone = cg_label(g), done = cg_label(g);

	for (int i = 0; i < n->nargs; i++)
		map_delete(g, n->args[i], n->op == DELETE_UNUSED);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), gone);
	cg_emit(g, MOV_IMM(R0, 1));
	cg_jump(g, JA(), done);
	cg_bind(g, gone);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
}

/* The histogram functions take the value in r0 (where cg_int leaves
 * it) and put the bucket index in r1; r2 is scratch. */
#define HV R0
#define HB R1

/* HB = BASE + the highest set bit of HV (not 0): a binary search; 2^32
 * does not fit an immediate, so the first step shifts instead of
 * comparing.  HV and r2 are clobbered. */
static void top_bit(struct cg *g, int base)
{
	int below = cg_label(g);

	cg_emit(g, MOV_IMM(HB, base));
	cg_emit(g, MOV_REG(R2, HV));
	cg_emit(g, ALU64_IMM(BPF_RSH, R2, 32));
	cg_jump(g, JMP_IMM(BPF_JEQ, R2, 0), below);
	cg_emit(g, MOV_IMM(HB, base + 32));
	cg_emit(g, MOV_REG(HV, R2));
	cg_bind(g, below);
	for (int k = 16; k; k /= 2) {
		int skip = cg_label(g);

		cg_jump(g, JMP_IMM(BPF_JLT, HV, 1 << k), skip);
		cg_emit(g, ALU64_IMM(BPF_RSH, HV, k));
		cg_emit(g, ALU64_IMM(BPF_ADD, HB, k));
		cg_bind(g, skip);
	}
}

/* Bucket index of log2 histograms: 0 for negatives, 1 for 0, k + 2 for
 * [2^k, 2^(k+1)): 2 + the highest set bit (top_bit). */
static void log2_bucket(struct cg *g, bool is_signed)
{
	int done = cg_label(g);

	if (is_signed) {
		cg_emit(g, MOV_IMM(HB, 0));
		cg_jump(g, JMP_IMM(BPF_JSLT, HV, 0), done);
	}
	cg_emit(g, MOV_IMM(HB, 1));
	cg_jump(g, JMP_IMM(BPF_JEQ, HV, 0), done);
	top_bit(g, 2);
	cg_bind(g, done);
}

/* hist(x, k) with k > 0, as hist_bucket() (base/util.c): the values
 * below 2^(k+1) get one bucket each; above, with l the highest set bit,
 * bucket ((l - k + 1) << k) + the k bits after it + 1.  r3, r4 scratch. */
static void log2_bucket_k(struct cg *g, bool is_signed, int k)
{
	int done = cg_label(g);

	if (is_signed) {
		cg_emit(g, MOV_IMM(HB, 0));
		cg_jump(g, JMP_IMM(BPF_JSLT, HV, 0), done);
	}
	cg_emit(g, MOV_REG(HB, HV));
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, 1));
	cg_jump(g, JMP_IMM(BPF_JLT, HV, 2 << k), done);
	cg_emit(g, MOV_REG(R3, HV));
	top_bit(g, 0);		/* HB = l, the highest set bit of HV */
	cg_emit(g, ALU64_IMM(BPF_SUB, HB, k));		/* l - k */
	cg_emit(g, ALU64_REG(BPF_RSH, R3, HB));
	cg_emit(g, ALU64_IMM(BPF_AND, R3, (1 << k) - 1));
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, 1));
	cg_emit(g, ALU64_IMM(BPF_LSH, HB, k));
	cg_emit(g, ALU64_REG(BPF_ADD, HB, R3));
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, 1));
	cg_bind(g, done);
}

/* Jump to LABEL when the value OP V (signed); V may not fit an
 * immediate. */
static void jump_cmp(struct cg *g, int op, int64_t v, int label)
{
	if (v >= INT32_MIN && v <= INT32_MAX) {
		cg_jump(g, JMP_IMM(op, HV, (int32_t)v), label);
	} else {
		cg_imm(g, R2, v);
		cg_jump(g, JMP_REG(op, HV, R2), label);
	}
}

/* Linear bucket for lhist(v, min, max, step). */
static void lin_bucket(struct cg *g, struct mapinfo *m)
{
	int done = cg_label(g);
	int64_t nb = (m->lh_max - m->lh_min) / m->lh_step + 2;

	cg_emit(g, MOV_IMM(HB, 0));
	jump_cmp(g, BPF_JSLT, m->lh_min, done);
	cg_imm(g, HB, nb - 1);
	jump_cmp(g, BPF_JSGE, m->lh_max, done);
	if (m->lh_min) {
		cg_imm(g, R2, m->lh_min);
		cg_emit(g, ALU64_REG(BPF_SUB, HV, R2));
	}
	if (m->lh_step <= INT32_MAX) {	/* no zero test for the kernel */
		cg_emit(g, ALU64_IMM(BPF_DIV, HV, (int32_t)m->lh_step));
	} else {
		cg_imm(g, R2, m->lh_step);
		cg_emit(g, ALU64_REG(BPF_DIV, HV, R2));
	}
	cg_emit(g, MOV_REG(HB, HV));
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, 1));
	cg_bind(g, done);
}

/* HV = |HV| as unsigned (-2^63 stays 2^63), the sign kept in r3. */
static void magnitude(struct cg *g)
{
	int pos = cg_label(g);

	cg_emit(g, MOV_REG(R3, HV));
	cg_jump(g, JMP_IMM(BPF_JSGE, HV, 0), pos);
	cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, HV, 0, 0, 0));
	cg_bind(g, pos);
}

/* HB = BIN0 + HB, or BIN0 - HB for a negative value (r3). */
static void signed_offset(struct cg *g, int bin0)
{
	int neg = cg_label(g), done = cg_label(g);

	cg_jump(g, JMP_IMM(BPF_JSLT, R3, 0), neg);
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, bin0));
	cg_jump(g, JA(), done);
	cg_bind(g, neg);
	cg_emit(g, bpf_i(BPF_ALU64 | BPF_NEG, HB, 0, 0, 0));
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, bin0));
	cg_bind(g, done);
}

/* D's quantize() bucket, as out/dtfmt.c's dtf_quant_index(): 63 for 0,
 * 64 + k for a positive value in [2^k, 2^(k+1)), 62 - k for a negative
 * one of that magnitude, everything at or below -2^62 in 0. */
static void dquant_bucket(struct cg *g)
{
	int done = cg_label(g), low = cg_label(g);

	cg_emit(g, MOV_IMM(HB, DQUANT_NBUCKETS / 2));
	cg_jump(g, JMP_IMM(BPF_JEQ, HV, 0), done);
	magnitude(g);
	top_bit(g, 0);		/* k; 63 only for -2^63, which joins 62 */
	cg_jump(g, JMP_IMM(BPF_JLE, HB, 62), low);
	cg_emit(g, MOV_IMM(HB, 62));
	cg_bind(g, low);
	cg_emit(g, ALU64_IMM(BPF_ADD, HB, 1));
	signed_offset(g, DQUANT_NBUCKETS / 2);
	cg_bind(g, done);
}

/* F^E (the caller knows it fits: sema checked factor^(high+1)). */
static uint64_t upow(uint64_t f, int e)
{
	uint64_t r = 1;

	while (e-- > 0)
		r *= f;
	return r;
}

/* Jump to LABEL when HV (unsigned) >= V. */
static void jump_uge(struct cg *g, uint64_t v, int label)
{
	if (v <= INT32_MAX) {
		cg_jump(g, JMP_IMM(BPF_JGE, HV, (int32_t)v), label);
	} else {
		cg_imm(g, R2, (int64_t)v);
		cg_jump(g, JMP_REG(BPF_JGE, HV, R2), label);
	}
}

/* HV = HV / V, unsigned. */
static void div_u(struct cg *g, uint64_t v)
{
	if (v <= INT32_MAX) {
		cg_emit(g, ALU64_IMM(BPF_DIV, HV, (int32_t)v));
	} else {
		cg_imm(g, R2, (int64_t)v);
		cg_emit(g, ALU64_REG(BPF_DIV, HV, R2));
	}
}

/* D's llquantize() bucket, as dtf_llquant_index(): |v| below
 * factor^low in bin0; else, magnitude by magnitude (unrolled: at most
 * 63 of them), the step within it, STEPS/FACTOR of whose buckets lie
 * below the magnitude; bin0 minus or plus that offset by the sign. */
static void dllquant_bucket(struct cg *g, const struct mapinfo *m)
{
	int sign = cg_label(g), in = cg_label(g);
	int per = m->llq_steps - m->llq_steps / m->llq_factor;
	int sf = m->llq_steps / m->llq_factor, off = 1;
	int bin0 = 1 + (m->llq_high - m->llq_low + 1) * per;
	uint64_t lo = upow((uint64_t)m->llq_factor, m->llq_low), hi;

	magnitude(g);
	cg_emit(g, MOV_IMM(HB, 0));
	jump_uge(g, lo, in);	/* below factor^low (0 too): bin0 */
	cg_jump(g, JA(), sign);
	cg_bind(g, in);
	for (int mag = m->llq_low; mag <= m->llq_high; mag++, off += per) {
		int next = cg_label(g);

		hi = lo * (uint64_t)m->llq_factor;
		jump_uge(g, hi, next);
		if (hi % (uint64_t)m->llq_steps == 0) {
			div_u(g, hi / (uint64_t)m->llq_steps);
		} else {	/* only below factor: no overflow */
			cg_emit(g, ALU64_IMM(BPF_MUL, HV, m->llq_steps));
			div_u(g, hi);
		}
		cg_emit(g, MOV_REG(HB, HV));
		cg_emit(g, ALU64_IMM(BPF_ADD, HB, off - sf));
		cg_jump(g, JA(), sign);
		cg_bind(g, next);
		lo = hi;
	}
	cg_emit(g, MOV_IMM(HB, off));
	cg_bind(g, sign);
	signed_offset(g, bin0);
}

/* The bucket of a constant value V, as log2_bucket() and lin_bucket()
 * compute it: code the verifier would find half dead, and removing dead
 * code moves the whole program each time (quadratic in long bodies). */
static int64_t const_bucket(const struct mapinfo *m, int64_t v, bool sgn)
{
	uint64_t u = (uint64_t)v;

	if (m->agg == AGG_LHIST) {
		if (v < m->lh_min)
			return 0;
		if (v >= m->lh_max)
			return (m->lh_max - m->lh_min) / m->lh_step + 1;
		return (int64_t)((uint64_t)(v - m->lh_min) /
				 (uint64_t)m->lh_step) + 1;
	}
	return hist_bucket(u, sgn && v < 0, m->hist_bits);
}

void cg_minmax_fold(struct cg *g, enum agg_kind agg, bool sgn, int v, int p,
		    int t)
{
	int set = cg_label(g), done = cg_label(g);
	int op = agg == AGG_MIN ? (sgn ? BPF_JSGE : BPF_JGE)
				: (sgn ? BPF_JSLE : BPF_JLE);

	cg_emit(g, LDX(BPF_DW, t, p, 8));
	cg_jump(g, JMP_IMM(BPF_JEQ, t, 0), set);
	cg_emit(g, LDX(BPF_DW, t, p, 0));
	cg_jump(g, JMP_REG(op, v, t), done);
	cg_bind(g, set);
	cg_emit(g, STX(BPF_DW, p, 0, v));
	cg_emit(g, ST_IMM(BPF_DW, p, 8, 1));
	cg_bind(g, done);
}

/* stddev(): the square of |r0| as 128 bits into the stack slots SQ[0]
 * (low word) and SQ[1] (high).  BPF multiplies only 64 by 64 bits to
 * 64, so the square goes through 32-bit halves: with a = h*2^32 + l,
 * a^2 = h^2*2^64 + 2*h*l*2^32 + l^2, carries added by hand. */
static void square128(struct cg *g, const int sq[2])
{
	magnitude(g);		/* r0 = |v|, r3 clobbered */
	cg_emit(g, MOV_REG(R1, R0));
	cg_emit(g, ALU64_IMM(BPF_LSH, R1, 32));
	cg_emit(g, ALU64_IMM(BPF_RSH, R1, 32));		/* l */
	cg_emit(g, MOV_REG(R2, R0));
	cg_emit(g, ALU64_IMM(BPF_RSH, R2, 32));		/* h */
	cg_emit(g, MOV_REG(R3, R1));
	cg_emit(g, ALU64_REG(BPF_MUL, R3, R1));		/* low: l^2 */
	cg_emit(g, MOV_REG(R4, R2));
	cg_emit(g, ALU64_REG(BPF_MUL, R4, R2));		/* high: h^2 */
	cg_emit(g, MOV_REG(R5, R1));
	cg_emit(g, ALU64_REG(BPF_MUL, R5, R2));		/* h*l */
	cg_emit(g, MOV_REG(R1, R5));
	cg_emit(g, ALU64_IMM(BPF_RSH, R1, 32));
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R1));
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R1));
	cg_emit(g, ALU64_IMM(BPF_LSH, R5, 32));
	for (int i = 0; i < 2; i++) {	/* low += (h*l) << 32, twice */
		int nc = cg_label(g);

		cg_emit(g, ALU64_REG(BPF_ADD, R3, R5));
		cg_jump(g, JMP_REG(BPF_JGE, R3, R5), nc);
		cg_emit(g, ALU64_IMM(BPF_ADD, R4, 1));
		cg_bind(g, nc);
	}
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)sq[0], R3));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)sq[1], R4));
}

/* stddev(): the value at r0 {count, sum, squares low, high} takes V
 * and the square in SQ: 128-bit add with carry. */
static void stddev_in_place(struct cg *g, int v, const int sq[2])
{
	int nc = cg_label(g);

	cg_emit(g, LDX(BPF_DW, R1, R0, 0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, 1));
	cg_emit(g, STX(BPF_DW, R0, 0, R1));
	cg_emit(g, LDX(BPF_DW, R1, R0, 8));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)v));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
	cg_emit(g, STX(BPF_DW, R0, 8, R1));
	cg_emit(g, LDX(BPF_DW, R1, R0, 16));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)sq[0]));
	cg_emit(g, LDX(BPF_DW, R3, R0, 24));
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)sq[1]));
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R4));
	cg_jump(g, JMP_REG(BPF_JGE, R1, R2), nc);
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, 1));
	cg_bind(g, nc);
	cg_emit(g, STX(BPF_DW, R0, 16, R1));
	cg_emit(g, STX(BPF_DW, R0, 24, R3));
}

/* Fold the value in the stack slot V into the per-CPU value at r0. */
/* SGN: whether this call's value is signed (for min and max). */
static void agg_in_place(struct cg *g, struct mapinfo *m, int v,
			 const int sq[2], bool sgn)
{
	int skip = cg_label(g);

	switch (m->agg) {
	case AGG_STDDEV:
		stddev_in_place(g, v, sq);
		break;
	case AGG_COUNT: case AGG_HIST: case AGG_LHIST: case AGG_QUANT:
	case AGG_LLQUANT:
		if (!v) {
			cg_emit(g, LDX(BPF_DW, R1, R0, 0));
			cg_emit(g, ALU64_IMM(BPF_ADD, R1, 1));
			cg_emit(g, STX(BPF_DW, R0, 0, R1));
			break;
		}
		/* D's increment, added as sum() adds: */
		/* fall through */
	case AGG_SUM:
		cg_emit(g, LDX(BPF_DW, R1, R0, 0));
		cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)v));
		cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
		cg_emit(g, STX(BPF_DW, R0, 0, R1));
		break;
	case AGG_AVG: case AGG_STATS:
		cg_emit(g, LDX(BPF_DW, R1, R0, 0));
		cg_emit(g, ALU64_IMM(BPF_ADD, R1, 1));
		cg_emit(g, STX(BPF_DW, R0, 0, R1));
		cg_emit(g, LDX(BPF_DW, R1, R0, 8));
		cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)v));
		cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
		cg_emit(g, STX(BPF_DW, R0, 8, R1));
		break;
	case AGG_MIN: case AGG_MAX:
		cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)v));
		cg_minmax_fold(g, m->agg, sgn, R2, R0, R1);
		break;
	default:
		break;
	}
	cg_bind(g, skip);
}

/* The value a new entry starts with. */
static void agg_initial(struct cg *g, struct mapinfo *m, struct mem val, int v,
			const int sq[2])
{
	int16_t o = (int16_t)val.off;

	switch (m->agg) {
	case AGG_STDDEV:
		cg_emit(g, ST_IMM(BPF_DW, val.base, o, 1));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)v));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)(o + 8), R1));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)sq[0]));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)(o + 16), R1));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)sq[1]));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)(o + 24), R1));
		break;
	case AGG_COUNT: case AGG_HIST: case AGG_LHIST: case AGG_QUANT:
	case AGG_LLQUANT:
		if (!v) {
			cg_emit(g, ST_IMM(BPF_DW, val.base, o, 1));
			break;
		}
		/* D's increment: */
		/* fall through */
	case AGG_SUM:
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)v));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)val.off, R1));
		break;
	case AGG_AVG: case AGG_STATS:
		cg_emit(g, ST_IMM(BPF_DW, val.base, (int16_t)val.off, 1));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)v));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)(val.off + 8), R1));
		break;
	case AGG_MIN: case AGG_MAX:
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)v));
		cg_emit(g, STX(BPF_DW, val.base, (int16_t)val.off, R1));
		cg_emit(g, ST_IMM(BPF_DW, val.base, (int16_t)(val.off + 8), 1));
		break;
	default:
		break;
	}
}

/* Aggregations live in per-CPU hash maps.  A present entry is updated
 * in place; a missing one is inserted with BPF_ANY.  Should another CPU
 * insert the same key between the lookup and the update, the update
 * writes only this CPU's value, which the insertion zeroed: nothing is
 * lost, so there is no retry. */
/* @m[k] = tseries(v, interval, n[, agg]): the bucket of the current
 * interval (its number: TAI now / interval; its place: number % n) is
 * reset when it holds an older interval, then takes v as the mode
 * says; count and the time of the update go beside it (user space
 * merges the CPUs' buckets by them).  A new key starts zeroed. */
static void tseries(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct node *target = n->a, *call = n->b;
	struct mapinfo *m = target->map;
	int vs = cg_stack_alloc(g, n), es = cg_stack_alloc(g, n);
	int ns = cg_stack_alloc(g, n);
	int have = cg_label(g), out = cg_label(g), same = cg_label(g);
	int set = cg_label(g), skip = cg_label(g);
	struct mem key, zero;

	cg_int(g, call->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)vs, R0));
	/* TAI: wall-clock seconds, so intervals start at round times */
	cg_call(g, BPF_FUNC_ktime_get_tai_ns);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)ns, R0));
	cg_imm(g, R1, m->ts_interval);
	cg_emit(g, ALU64_REG(BPF_DIV, R0, R1));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)es, R0));
	key = cg_tmp_alloc(g, m->key_size, n);
	fill_key(g, target, key);
	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), have);
	zero = cg_scratch_alloc(g, m->value_size, n);
	cg_zero(g, zero, 0, m->value_size);
	update(g, m, key, zero, BPF_NOEXIST, n);
	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), out);
	cg_bind(g, have);
	cg_emit(g, MOV_REG(R7, R0));
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)es));
	cg_emit(g, MOV_REG(R2, R1));
	cg_emit(g, ALU64_IMM(BPF_MOD, R2, m->ts_n));
	cg_jump(g, JMP_IMM(BPF_JGE, R2, m->ts_n), out);	/* for the verifier */
	cg_emit(g, ALU64_IMM(BPF_LSH, R2, 5));		/* TS_BUCKET */
	cg_emit(g, ALU64_REG(BPF_ADD, R7, R2));
	cg_emit(g, LDX(BPF_DW, R3, R7, 0));
	cg_jump(g, JMP_REG(BPF_JEQ, R3, R1), same);
	cg_emit(g, STX(BPF_DW, R7, 0, R1));
	cg_emit(g, ST_IMM(BPF_DW, R7, 8, 0));
	cg_emit(g, ST_IMM(BPF_DW, R7, 16, 0));
	cg_bind(g, same);
	cg_emit(g, LDX(BPF_DW, R8, RFP, (int16_t)vs));
	switch (m->ts_mode) {
	case TS_SUM: case TS_AVG:
		cg_emit(g, LDX(BPF_DW, R3, R7, 8));
		cg_emit(g, ALU64_REG(BPF_ADD, R3, R8));
		cg_emit(g, STX(BPF_DW, R7, 8, R3));
		break;
	case TS_MIN: case TS_MAX:
		cg_emit(g, LDX(BPF_DW, R4, R7, 16));
		cg_jump(g, JMP_IMM(BPF_JEQ, R4, 0), set);
		cg_emit(g, LDX(BPF_DW, R3, R7, 8));
		cg_jump(g, JMP_REG(m->ts_mode == TS_MIN ? BPF_JSGE : BPF_JSLE,
				   R8, R3), skip);
		cg_bind(g, set);
		cg_emit(g, STX(BPF_DW, R7, 8, R8));
		cg_bind(g, skip);
		break;
	default:
		cg_emit(g, STX(BPF_DW, R7, 8, R8));
	}
	cg_emit(g, LDX(BPF_DW, R3, R7, 16));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, 1));
	cg_emit(g, STX(BPF_DW, R7, 16, R3));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)ns));
	cg_emit(g, STX(BPF_DW, R7, 24, R3));
	cg_bind(g, out);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* The increment of D's quantize(v, incr), lquantize(v, b, l, s, incr)
 * or llquantize(v, f, l, h, n, incr), or NULL: a bucket counts 1. */
static struct node *incr_arg(const struct mapinfo *m, const struct node *call)
{
	int i = m->agg == AGG_QUANT ? 1 : m->agg == AGG_LHIST ? 4 :
		m->agg == AGG_LLQUANT ? 5 : -1;

	return i >= 0 && call->nargs > i ? call->args[i] : NULL;
}

/* Does hist or lhist map M keep the sum of its values (--metrics)? */
static bool hist_sum(const struct cg *g, const struct mapinfo *m)
{
	return g->c->hist_sums && !g->c->lang_d &&
	       (m->agg == AGG_HIST || m->agg == AGG_LHIST);
}

/* After a hist or lhist update: the value in stack slot SUM added to
 * the key's sum slot (KEY's bucket word set to it), inserted when new. */
static void add_hist_sum(struct cg *g, struct mapinfo *m, struct mem key,
			 struct mem val, int sum, struct node *n)
{
	int have = cg_label(g), done = cg_label(g);
	int sq[2] = { 0, 0 };

	cg_emit(g, ST_IMM(BPF_DW, key.base,
			  (int16_t)(key.off + m->key_size - 8),
			  hist_sum_slot(m)));
	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), have);
	agg_initial(g, m, val, sum, sq);	/* a count's increment */
	update(g, m, key, val, BPF_ANY, n);
	cg_jump(g, JA(), done);
	cg_bind(g, have);
	agg_in_place(g, m, sum, sq, false);
	cg_bind(g, done);
}

void cg_agg(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct node *target = n->a, *call = n->b;
	struct mapinfo *m = target->map;
	struct mem key, val;
	int v = 0, sq[2] = { 0, 0 }, sum = 0;
	int have = cg_label(g), done = cg_label(g);
	/* Buckets and comparisons follow this call's value type. */
	bool sgn = m->agg != AGG_COUNT && call->args[0]->ty->is_signed;

	if (m->agg == AGG_TSERIES) {
		tseries(g, n);
		return;
	}
	key = cg_tmp_alloc(g, m->key_size, n);
	if (agg_bucketed(m->agg)) {
		/* the value only picks the bucket, the key's last word */
		struct node *a = call->args[0], *inc = incr_arg(m, call);

		if (inc) {
			v = cg_stack_alloc(g, n);
			cg_int(g, inc);
			cg_emit(g, STX(BPF_DW, RFP, (int16_t)v, R0));
		}
		if (hist_sum(g, m)) {
			sum = cg_stack_alloc(g, n);
			cg_int(g, a);
			cg_emit(g, STX(BPF_DW, RFP, (int16_t)sum, R0));
		}
		/* D's buckets: the code even for a constant (the verifier
		 * folds it), so tests of constants test it */
		if (a->is_const && (m->agg == AGG_HIST || m->agg == AGG_LHIST)) {
			cg_imm(g, HB, const_bucket(m, a->cval, sgn));
		} else {
			if (sum)	/* evaluated once */
				cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)sum));
			else
				cg_int(g, a);
			if (m->agg == AGG_HIST && m->hist_bits)
				log2_bucket_k(g, sgn, m->hist_bits);
			else if (m->agg == AGG_HIST)
				log2_bucket(g, sgn);
			else if (m->agg == AGG_QUANT)
				dquant_bucket(g);
			else if (m->agg == AGG_LLQUANT)
				dllquant_bucket(g, m);
			else
				lin_bucket(g, m);
		}
		cg_emit(g, STX(BPF_DW, key.base,
			       (int16_t)(key.off + m->key_size - 8), HB));
	} else if (m->agg != AGG_COUNT) {
		v = cg_stack_alloc(g, n);
		cg_int(g, call->args[0]);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)v, R0));
		if (m->agg == AGG_STDDEV) {
			sq[0] = cg_stack_alloc(g, n);
			sq[1] = cg_stack_alloc(g, n);
			square128(g, sq);
		}
	}
	fill_key(g, target, key);
	val = cg_tmp_alloc(g, m->value_size, n);
	lookup(g, m, key);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), have);
	agg_initial(g, m, val, v, sq);
	update(g, m, key, val, BPF_ANY, n);
	cg_jump(g, JA(), done);
	cg_bind(g, have);
	agg_in_place(g, m, v, sq, m->val->is_signed);
	cg_bind(g, done);
	if (sum)
		add_hist_sum(g, m, key, val, sum, n);
	g->scratch = saved;
	g->stack = saved_stack;
}
