/* cg_dstr.c - code of DTrace's string subroutines (D only; checked by
 * sema/sema_dstr.c): strjoin, substr, index, rindex, strchr, strrchr,
 * basename, dirname, lltostr, toupper, tolower and strtok.
 *
 * Each works on a copy of its string in scratch (a map value, where a
 * byte may be read at a variable offset), zero-padded past it; its
 * length is what bpf_probe_read_kernel_str() counts copying it onto
 * itself, no loop.  Most of them then come down to a start and a
 * length, and one bpf_probe_read_kernel_str() of that many bytes from
 * the copy into the destination (zeroed first: the helper does not
 * pad), which stops at the NUL: `put()`.
 *
 * The loops are bounded by the string's size, and shaped for the
 * verifier, which walks every iteration: a loop's exits fall through,
 * so that the first exit is explored to the end first and the later
 * ones, whose states are within it, are pruned (as cg_strcontains()
 * does); and a position a loop found goes through scratch memory
 * (`forget()`) before it is used, so that the verifier does not carry
 * one exact value per iteration into the rest of the program. */
#include "bpf/cg_int.h"

/* lltostr()'s buffer: the last digit at LL_END, its NUL after, and
 * room below for 64 digits and three characters of prefix. */
#define LL_END 68
#define LL_BUF 72

/* A scratch buffer of SIZE bytes (at least A's slot) holding string
 * A, zeros after it; its length stored at stack slot LENSLOT. */
static struct mem load(struct cg *g, struct node *n, struct node *a,
		       int size, int lenslot)
{
	int slot = ty_slot_size(a->ty), ok = cg_label(g);
	struct mem buf;

	size = ALIGN_UP(size < slot ? slot : size, 8);
	buf = cg_scratch_alloc(g, size, n);
	cg_store(g, a, buf, a->ty);
	cg_zero(g, buf, slot, size);
	cg_addr_of(g, R1, buf);
	cg_emit(g, MOV_IMM(R2, a->ty->size));
	cg_addr_of(g, R3, buf);
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
	cg_emit(g, ALU64_IMM(BPF_SUB, R0, 1));
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, ok);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)lenslot, R0));
	return buf;
}

/* REG through scratch memory: the same value, unknown to the verifier
 * (map values are not tracked), so the states that differ only in it
 * are one. */
static void forget(struct cg *g, struct node *n, int reg)
{
	struct mem m = cg_scratch_alloc(g, 8, n);

	cg_emit(g, STX(BPF_DW, m.base, (int16_t)m.off, reg));
	cg_emit(g, LDX(BPF_DW, reg, m.base, (int16_t)m.off));
}

/* REG = min(max(REG, LO), HI), signed; the verifier learns the bounds. */
static void clamp(struct cg *g, int reg, int lo, int hi)
{
	int a = cg_label(g), b = cg_label(g);

	cg_jump(g, JMP_IMM(BPF_JSGE, reg, lo), a);
	cg_emit(g, MOV_IMM(reg, lo));
	cg_bind(g, a);
	cg_jump(g, JMP_IMM(BPF_JSLE, reg, hi), b);
	cg_emit(g, MOV_IMM(reg, hi));
	cg_bind(g, b);
}

/* DST (of type DT) = the characters of SRC from the position at stack
 * slot AT, at most the count at stack slot LEN (negative: none), cut
 * to the result's size and stopped by SRC's NUL. */
static void put(struct cg *g, struct node *n, struct mem dst,
		const struct type *dt, struct mem src, int at, int len)
{
	int cap = dt->size < n->ty->size ? dt->size : n->ty->size;

	cg_zero(g, dst, 0, ty_slot_size(dt));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)len));
	clamp(g, R2, 0, cap - 1);
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_addr_of(g, R3, src);
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)at));
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R4));
	cg_addr_of(g, R1, dst);
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
}

/* strjoin(a, b): A copied into a buffer, then B after A's length (the
 * buffer is twice the result, so that the verifier sees the second
 * copy in bounds whatever the length), then the result moved. */
static void strjoin(struct cg *g, struct node *n, struct mem dst,
		    const struct type *dt)
{
	struct node *a = n->args[0], *b = n->args[1];
	int out = n->ty->size, oslot = ty_slot_size(n->ty);
	int lslot = cg_stack_alloc(g, n);
	struct mem buf = cg_scratch_alloc(g, 2 * oslot, n), m;

	cg_zero(g, buf, 0, oslot);
	m = cg_addr(g, a);
	cg_addr_of(g, R1, buf);
	cg_emit(g, MOV_IMM(R2, a->ty->size < out ? a->ty->size : out));
	cg_addr_of(g, R3, m);
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
	cg_emit(g, ALU64_IMM(BPF_SUB, R0, 1));
	clamp(g, R0, 0, out - 1);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)lslot, R0));
	m = cg_addr(g, b);
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)lslot));
	clamp(g, R4, 0, out - 1);
	cg_addr_of(g, R1, buf);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R4));
	cg_emit(g, MOV_IMM(R2, out));
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R4));
	cg_addr_of(g, R3, m);
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
	cg_copy(g, dst, dt, buf, n->ty);
}

/* substr(s, index[, length]) by DTrace's rules: a negative index
 * counts from the end, and when that is still before the start, the
 * length is shortened by as much (if anything is left); an index past
 * the end gives ""; a negative length leaves that many characters off
 * the end.  Without a length, D's string size. */
static void substr(struct cg *g, struct node *n, struct mem dst,
		   const struct type *dt)
{
	int lslot = cg_stack_alloc(g, n), islot = cg_stack_alloc(g, n);
	int rslot = cg_stack_alloc(g, n);
	int pos = cg_label(g), keep = cg_label(g), empty = cg_label(g);
	int out = cg_label(g);
	struct mem buf = load(g, n, n->args[0], 0, lslot);

	cg_int(g, n->args[1]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R0));
	if (n->nargs == 3)
		cg_int(g, n->args[2]);
	else
		cg_emit(g, MOV_IMM(R0, g->c->strlen_));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R0));
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)islot));
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)rslot));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)lslot));
	cg_jump(g, JMP_IMM(BPF_JSGE, R1, 0), pos);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R3));
	cg_jump(g, JMP_IMM(BPF_JSGE, R1, 0), pos);
	cg_emit(g, MOV_REG(R4, R1));
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R2));
	cg_jump(g, JMP_IMM(BPF_JSLE, R4, 0), pos);
	cg_emit(g, ALU64_REG(BPF_ADD, R2, R1));
	cg_emit(g, MOV_IMM(R1, 0));
	cg_bind(g, pos);
	cg_jump(g, JMP_IMM(BPF_JSLT, R1, 0), empty);
	cg_jump(g, JMP_REG(BPF_JSGE, R1, R3), empty);
	cg_jump(g, JMP_IMM(BPF_JSGE, R2, 0), keep);
	cg_emit(g, ALU64_REG(BPF_ADD, R2, R3));
	cg_emit(g, ALU64_REG(BPF_SUB, R2, R1));
	cg_bind(g, keep);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R1));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R2));
	cg_jump(g, JA(), out);
	cg_bind(g, empty);
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, 0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, 0));
	cg_bind(g, out);
	put(g, n, dst, dt, buf, islot, rslot);
}

/* r1 = the byte of BUF at the position in REG (r1..r5 but r1). */
static void byte_at(struct cg *g, struct mem buf, int reg)
{
	cg_addr_of(g, R1, buf);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, reg));
	cg_emit(g, LDX(BPF_B, R1, R1, 0));
}

/* strchr(s, c), strrchr(s, c): S from the first (last) C on, "" when
 * S has none (D's NULL, which prints as "").  The last C is kept
 * without a branch, (b ^ c) - 1 >> 63 being 1 only when b == c, so
 * that the walk has one state per position. */
static void strchr_code(struct cg *g, struct node *n, struct mem dst,
			const struct type *dt)
{
	int size = n->args[0]->ty->size;
	int lslot = cg_stack_alloc(g, n), islot = cg_stack_alloc(g, n);
	int rslot = cg_stack_alloc(g, n);
	int loop = cg_label(g), next = cg_label(g), end = cg_label(g);
	int none = cg_label(g);
	struct mem buf = load(g, n, n->args[0], 0, lslot);
	bool last = n->builtin == F_STRRCHR;

	cg_int(g, n->args[1]);
	cg_emit(g, ALU64_IMM(BPF_AND, R0, 0xff));
	cg_emit(g, MOV_REG(R4, R0));
	cg_emit(g, MOV_IMM(R5, -1));
	cg_emit(g, MOV_IMM(R2, 0));
	cg_bind(g, loop);
	cg_jump(g, JMP_IMM(BPF_JLE, R2, size - 1), next);
	cg_jump(g, JA(), end);
	cg_bind(g, next);
	byte_at(g, buf, R2);
	if (last) {
		cg_emit(g, MOV_REG(R3, R1));
		cg_emit(g, ALU64_REG(BPF_XOR, R3, R4));
		cg_emit(g, ALU64_IMM(BPF_SUB, R3, 1));
		cg_emit(g, ALU64_IMM(BPF_RSH, R3, 63));
		cg_emit(g, MOV_REG(R0, R2));
		cg_emit(g, ALU64_REG(BPF_SUB, R0, R5));
		cg_emit(g, ALU64_REG(BPF_MUL, R0, R3));
		cg_emit(g, ALU64_REG(BPF_ADD, R5, R0));
	} else {
		int other = cg_label(g);

		cg_jump(g, JMP_REG(BPF_JNE, R1, R4), other);
		cg_emit(g, MOV_REG(R5, R2));
		cg_jump(g, JA(), end);
		cg_bind(g, other);
	}
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), loop);
	cg_bind(g, end);
	forget(g, n, R5);
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, 0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, 0));
	cg_jump(g, JMP_IMM(BPF_JSLT, R5, 0), none);
	clamp(g, R5, 0, size - 1);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R5));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, size));
	cg_bind(g, none);
	put(g, n, dst, dt, buf, islot, rslot);
}

/* From the position in r2 down to 0 while the byte there is (IS) or
 * is not (!IS) a slash; r2 = the position it stops at, -1 at the
 * start.  The exits fall through. */
static void walk_back(struct cg *g, struct mem buf, bool slash)
{
	int loop = cg_label(g), body = cg_label(g), cont = cg_label(g);
	int end = cg_label(g);

	cg_bind(g, loop);
	cg_jump(g, JMP_IMM(BPF_JSGE, R2, 0), body);
	cg_jump(g, JA(), end);
	cg_bind(g, body);
	byte_at(g, buf, R2);
	cg_jump(g, JMP_IMM(slash ? BPF_JEQ : BPF_JNE, R1, '/'), cont);
	cg_jump(g, JA(), end);
	cg_bind(g, cont);
	cg_emit(g, ALU64_IMM(BPF_SUB, R2, 1));
	cg_jump(g, JA(), loop);
	cg_bind(g, end);
}

/* basename(s), dirname(s) as DTrace computes them: from the end, the
 * trailing slashes, the last name (its first and last character), the
 * slashes before it; "" and a name alone have "." (written into the
 * copy, which is then the source), a string of slashes "/". */
static void basename_code(struct cg *g, struct node *n, struct mem dst,
			  const struct type *dt)
{
	int size = n->args[0]->ty->size;
	int lslot = cg_stack_alloc(g, n), islot = cg_stack_alloc(g, n);
	int rslot = cg_stack_alloc(g, n), lastbase = cg_stack_alloc(g, n);
	int first = cg_stack_alloc(g, n);
	int dot = cg_label(g), slashes = cg_label(g), out = cg_label(g);
	struct mem buf = load(g, n, n->args[0], 2, lslot);
	bool dir = n->builtin == F_DIRNAME;

	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)lslot));
	cg_jump(g, JMP_IMM(BPF_JEQ, R2, 0), dot);
	cg_emit(g, ALU64_IMM(BPF_SUB, R2, 1));
	clamp(g, R2, 0, size - 1);
	walk_back(g, buf, true);
	forget(g, n, R2);
	cg_jump(g, JMP_IMM(BPF_JSLT, R2, 0), slashes);
	clamp(g, R2, 0, size - 1);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)lastbase, R2));
	walk_back(g, buf, false);
	forget(g, n, R2);
	clamp(g, R2, -1, size - 1);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)first, R2));
	if (!dir) {
		/* from after the slash (or 0) to lastbase */
		cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R2));
		cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)lastbase));
		cg_emit(g, ALU64_REG(BPF_SUB, R3, R2));
		cg_emit(g, ALU64_IMM(BPF_ADD, R3, 1));
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R3));
		cg_jump(g, JA(), out);
	} else {
		int some = cg_label(g);

		cg_jump(g, JMP_IMM(BPF_JSLT, R2, 0), dot);
		walk_back(g, buf, true);
		forget(g, n, R2);
		/* up to the last character before those slashes; a
		 * "/name" keeps its slash */
		cg_jump(g, JMP_IMM(BPF_JSGE, R2, 0), some);
		cg_emit(g, MOV_IMM(R2, 0));
		cg_bind(g, some);
		cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
		cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, 0));
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R2));
		cg_jump(g, JA(), out);
	}
	cg_bind(g, slashes);	/* all slashes: "/", its first */
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, 0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, 1));
	cg_jump(g, JA(), out);
	cg_bind(g, dot);
	cg_emit(g, ST_IMM(BPF_H, buf.base, (int16_t)buf.off, '.'));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, 0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, 1));
	cg_bind(g, out);
	put(g, n, dst, dt, buf, islot, rslot);
}

/* toupper(s), tolower(s): the copy changed in place a byte at a time
 * up to its NUL, then moved. */
static void case_code(struct cg *g, struct node *n, struct mem dst,
		      const struct type *dt)
{
	int size = n->args[0]->ty->size, lslot = cg_stack_alloc(g, n);
	int loop = cg_label(g), next = cg_label(g), go = cg_label(g);
	int same = cg_label(g), end = cg_label(g);
	struct mem buf = load(g, n, n->args[0], 0, lslot);
	bool up = n->builtin == F_TOUPPER;

	cg_emit(g, MOV_IMM(R2, 0));
	cg_bind(g, loop);
	cg_jump(g, JMP_IMM(BPF_JLE, R2, size - 1), next);
	cg_jump(g, JA(), end);
	cg_bind(g, next);
	cg_addr_of(g, R3, buf);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R2));
	cg_emit(g, LDX(BPF_B, R1, R3, 0));
	cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), go);
	cg_jump(g, JA(), end);
	cg_bind(g, go);
	cg_jump(g, JMP_IMM(BPF_JLT, R1, up ? 'a' : 'A'), same);
	cg_jump(g, JMP_IMM(BPF_JGT, R1, up ? 'z' : 'Z'), same);
	cg_emit(g, ALU64_IMM(BPF_XOR, R1, 0x20));
	cg_emit(g, STX(BPF_B, R3, 0, R1));
	cg_bind(g, same);
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_jump(g, JA(), loop);
	cg_bind(g, end);
	cg_emit(g, MOV_IMM(R2, 0));
	cg_copy(g, dst, dt, buf, n->ty);
}

/* One character CH (a register or, when REG < 0, an immediate) at the
 * position in r2 of BUF, then r2 down by one. */
static void ll_putc(struct cg *g, struct mem buf, int reg, int ch)
{
	cg_addr_of(g, R1, buf);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R2));
	if (reg >= 0)
		cg_emit(g, STX(BPF_B, R1, 0, reg));
	else
		cg_emit(g, ST_IMM(BPF_B, R1, 0, ch));
	cg_emit(g, ALU64_IMM(BPF_SUB, R2, 1));
}

/* lltostr(n[, base]) as DTrace writes it: the digits from the last,
 * then "0x" in base 16 ("0x0" for zero), "0" in base 8 and for zero,
 * "-" for a negative number in base 10 (other bases show the 64 bits
 * unsigned); a base outside 2..36 gives "". */
static void lltostr(struct cg *g, struct node *n, struct mem dst,
		    const struct type *dt)
{
	int vslot = cg_stack_alloc(g, n), bslot = cg_stack_alloc(g, n);
	int islot = cg_stack_alloc(g, n), rslot = cg_stack_alloc(g, n);
	int bad = cg_label(g), unsig = cg_label(g), loop = cg_label(g);
	int digit = cg_label(g), low = cg_label(g), stored = cg_label(g);
	int done = cg_label(g), out = cg_label(g);
	struct mem buf = cg_scratch_alloc(g, LL_BUF, n);

	cg_zero(g, buf, 0, LL_BUF);
	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)vslot, R0));
	if (n->nargs == 2)
		cg_int(g, n->args[1]);
	else
		cg_emit(g, MOV_IMM(R0, 10));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)bslot, R0));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)islot, LL_END + 1));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rslot, 0));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)bslot));
	cg_jump(g, JMP_IMM(BPF_JLT, R3, 2), bad);
	cg_jump(g, JMP_IMM(BPF_JGT, R3, 36), bad);
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)vslot));
	cg_jump(g, JMP_IMM(BPF_JNE, R3, 10), unsig);
	cg_jump(g, JMP_IMM(BPF_JSGE, R4, 0), unsig);
	cg_emit(g, ALU64_IMM(BPF_NEG, R4, 0));
	cg_bind(g, unsig);
	cg_emit(g, MOV_IMM(R2, LL_END));
	cg_bind(g, loop);	/* r4: what is left, r3: the base */
	cg_jump(g, JMP_IMM(BPF_JNE, R4, 0), digit);
	cg_jump(g, JA(), done);
	cg_bind(g, digit);
	cg_emit(g, MOV_REG(R5, R4));
	cg_emit(g, ALU64_REG(BPF_MOD, R5, R3));
	cg_jump(g, JMP_IMM(BPF_JLE, R5, 9), low);
	cg_emit(g, ALU64_IMM(BPF_ADD, R5, 'a' - 10 - '0'));
	cg_bind(g, low);
	cg_emit(g, ALU64_IMM(BPF_ADD, R5, '0'));
	ll_putc(g, buf, R5, 0);
	cg_emit(g, ALU64_REG(BPF_DIV, R4, R3));
	cg_jump(g, JMP_IMM(BPF_JSGE, R2, LL_END - 63), loop);
	cg_bind(g, done);
	forget(g, n, R2);
	clamp(g, R2, 4, LL_END);
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)bslot));
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)vslot));
	{
		int not16 = cg_label(g), nonzero = cg_label(g);
		int noprefix = cg_label(g), zero = cg_label(g);

		cg_jump(g, JMP_IMM(BPF_JNE, R3, 16), not16);
		cg_jump(g, JMP_IMM(BPF_JNE, R4, 0), nonzero);
		ll_putc(g, buf, -1, '0');
		cg_bind(g, nonzero);
		ll_putc(g, buf, -1, 'x');
		cg_jump(g, JA(), zero);
		cg_bind(g, not16);
		cg_jump(g, JMP_IMM(BPF_JEQ, R3, 8), zero);
		cg_jump(g, JMP_IMM(BPF_JNE, R4, 0), noprefix);
		cg_bind(g, zero);
		ll_putc(g, buf, -1, '0');
		cg_bind(g, noprefix);
		cg_jump(g, JMP_IMM(BPF_JNE, R3, 10), stored);
		cg_jump(g, JMP_IMM(BPF_JSGE, R4, 0), stored);
		ll_putc(g, buf, -1, '-');
	}
	cg_bind(g, stored);
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R2));
	cg_emit(g, MOV_IMM(R3, LL_END + 1));
	cg_emit(g, ALU64_REG(BPF_SUB, R3, R2));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R3));
	cg_jump(g, JA(), out);
	cg_bind(g, bad);
	cg_bind(g, out);
	put(g, n, dst, dt, buf, islot, rslot);
}

/* r1 = the position of index()/rindex()'s search to start at, or a
 * jump to NONE with r0 its answer, by DTrace's (Perl's) rules: index
 * from a negative start begins at 0, from one at or past the end
 * finds nothing, or the end for an empty T; rindex from a negative
 * start finds nothing, or 0 for an empty T, and from past the end
 * begins at the end.  r3: S's length, r4: T's. */
static void search_start(struct cg *g, struct node *n, int pslot, int none)
{
	bool back = n->builtin == F_RINDEX;
	int ok = cg_label(g), in = cg_label(g);

	if (n->nargs < 3) {
		if (back)
			cg_emit(g, MOV_REG(R1, R3));
		else
			cg_emit(g, MOV_IMM(R1, 0));
		return;
	}
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)pslot));
	if (!back) {
		cg_jump(g, JMP_IMM(BPF_JSGE, R1, 0), ok);
		cg_emit(g, MOV_IMM(R1, 0));
		cg_bind(g, ok);
		cg_jump(g, JMP_REG(BPF_JSLT, R1, R3), in);
		cg_emit(g, MOV_IMM(R0, -1));
		cg_jump(g, JMP_IMM(BPF_JNE, R4, 0), none);
		cg_emit(g, MOV_REG(R0, R3));
		cg_jump(g, JA(), none);
	} else {
		cg_jump(g, JMP_IMM(BPF_JSGE, R1, 0), ok);
		cg_emit(g, MOV_IMM(R0, -1));
		cg_jump(g, JMP_IMM(BPF_JNE, R4, 0), none);
		cg_emit(g, MOV_IMM(R0, 0));
		cg_jump(g, JA(), none);
		cg_bind(g, ok);
		cg_jump(g, JMP_REG(BPF_JSLE, R1, R3), in);
		cg_emit(g, MOV_REG(R1, R3));
	}
	cg_bind(g, in);
}

/* The callback of index()'s bpf_loop (cg_loop.c calls it with r6 the
 * iteration, r7 the caller's {start, answer}): the position START plus
 * (rindex: minus) the iteration, compared a word at a time with T's
 * words under the mask of their nonzero bytes, as cg_strcontains()
 * does (S's copy has zeros past it for T's length); a match is the
 * answer and stops the loop.  ARGS: the scratch offsets of S's copy,
 * the masks and T's copy; T's words, S's size, and whether back. */
static void search_body(struct cg *g, struct node *n, const int *args)
{
	int hb = args[0], masks = args[1], tb = args[2], nw = args[3];
	int hsz = args[4], miss = cg_label(g);

	(void)n;
	cg_emit(g, LDX(BPF_DW, R1, R7, 0));
	cg_emit(g, ALU64_REG(args[5] ? BPF_SUB : BPF_ADD, R1, RCTX));
	clamp(g, R1, 0, hsz - 1);
	cg_emit(g, MOV_REG(R5, RSCR));
	cg_emit(g, ALU64_REG(BPF_ADD, R5, R1));
	cg_emit(g, MOV_IMM(R0, 0));
	for (int w = 0; w < nw; w++) {
		cg_emit(g, LDX(BPF_DW, R2, R5, (int16_t)(hb + 8 * w)));
		cg_emit(g, LDX(BPF_DW, R3, RSCR, (int16_t)(masks + 8 * w)));
		cg_emit(g, ALU64_REG(BPF_AND, R2, R3));
		cg_emit(g, LDX(BPF_DW, R3, RSCR, (int16_t)(tb + 8 * w)));
		cg_emit(g, ALU64_REG(BPF_XOR, R2, R3));
		cg_emit(g, ALU64_REG(BPF_OR, R0, R2));
	}
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), miss);
	cg_emit(g, STX(BPF_DW, R7, 8, R1));
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, EXIT());
	cg_bind(g, miss);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_emit(g, EXIT());
}

/* r0 = index(s, t[, start]) or rindex(): the first (last) position,
 * from START on (down), where T is in S, -1 if none; both empty give
 * 0.  The positions are a bpf_loop(), whose callback the verifier
 * walks once: a loop of S's size around a compare of T's size would
 * be walked position by position, past its million instructions for
 * two long strings. */
static void index_code(struct cg *g, struct node *n)
{
	struct node *h = n->args[0], *t = n->args[1];
	int hsz = h->ty->size, nw = ty_slot_size(t->ty) / 8;
	bool back = n->builtin == F_RINDEX;
	int hl = cg_stack_alloc(g, n), tl = cg_stack_alloc(g, n);
	int pslot = cg_stack_alloc(g, n), ctx, none = cg_label(g);
	struct mem hb = load(g, n, h, ty_slot_size(h->ty) + 8 * nw, hl);
	struct mem tb = load(g, n, t, 0, tl);
	struct mem masks = cg_scratch_alloc(g, 8 * nw, n);
	int args[CG_CB_ARGS] = { hb.off, masks.off, tb.off, nw, hsz, back };

	for (int w = 0; w < nw; w++) {
		cg_emit(g, LDX(BPF_DW, R2, tb.base, (int16_t)(tb.off + 8 * w)));
		cg_nonzero_bytes(g);
		cg_emit(g, STX(BPF_DW, masks.base, (int16_t)(masks.off + 8 * w),
			       R2));
	}
	if (n->nargs == 3) {	/* unknown to the verifier, as are
				 * the lengths: were the loop's call dead
				 * code, its callback would be removed
				 * under it (a "verifier bug" of 6.18) */
		cg_int(g, n->args[2]);
		forget(g, n, R0);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)pslot, R0));
	}
	cg_stack_alloc(g, n);
	ctx = cg_stack_alloc(g, n);	/* {start, answer} */
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)hl));
	forget(g, n, R3);	/* (an empty literal's length is known) */
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)tl));
	forget(g, n, R4);
	cg_emit(g, MOV_REG(R0, R3));
	cg_emit(g, ALU64_REG(BPF_OR, R0, R4));
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), none);	/* both empty: 0 */
	search_start(g, n, pslot, none);
	clamp(g, R1, 0, hsz - 1);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)ctx, R1));
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)(ctx + 8), -1));
	if (back) {		/* from START down to 0 */
		cg_emit(g, ALU64_IMM(BPF_ADD, R1, 1));
	} else {		/* from START up to S's length */
		cg_emit(g, ALU64_REG(BPF_SUB, R3, R1));
		cg_emit(g, MOV_REG(R1, R3));
	}
	clamp(g, R1, 0, hsz);
	ir_ld_func(&g->ir, R2, cg_loop_callback(g, n, search_body, args));
	cg_emit(g, MOV_REG(R3, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, ctx));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_loop);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)(ctx + 8)));
	cg_bind(g, none);
	forget(g, n, R0);
}

bool cg_dstr_int(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;

	if (n->builtin != F_INDEX && n->builtin != F_RINDEX)
		return false;
	index_code(g, n);
	g->scratch = saved;
	g->stack = saved_stack;
	return true;
}

/* r0 = 1 when the byte in r1 has its bit in the delimiters' map MAP
 * (32 bytes of scratch), else 0; clobbers r3, r4. */
static void in_map(struct cg *g, struct mem map)
{
	cg_emit(g, MOV_REG(R3, R1));
	cg_emit(g, ALU64_IMM(BPF_RSH, R3, 3));
	cg_addr_of(g, R4, map);
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R3));
	cg_emit(g, LDX(BPF_B, R0, R4, 0));
	cg_emit(g, MOV_REG(R3, R1));
	cg_emit(g, ALU64_IMM(BPF_AND, R3, 7));
	cg_emit(g, ALU64_REG(BPF_RSH, R0, R3));
	cg_emit(g, ALU64_IMM(BPF_AND, R0, 1));
}

/* The delimiters' map: a bit per byte value, set for those of D (a
 * copy in scratch of SIZE bytes). */
static void delim_map(struct cg *g, struct mem map, struct mem d, int size)
{
	int loop = cg_label(g), next = cg_label(g), end = cg_label(g);

	cg_zero(g, map, 0, 32);
	cg_emit(g, MOV_IMM(R2, 0));
	cg_bind(g, loop);
	cg_jump(g, JMP_IMM(BPF_JLE, R2, size - 1), next);
	cg_jump(g, JA(), end);
	cg_bind(g, next);
	byte_at(g, d, R2);
	cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), end);
	cg_emit(g, MOV_REG(R3, R1));
	cg_emit(g, ALU64_IMM(BPF_RSH, R3, 3));
	cg_addr_of(g, R4, map);
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R3));
	cg_emit(g, LDX(BPF_B, R5, R4, 0));
	cg_emit(g, ALU64_IMM(BPF_AND, R1, 7));
	cg_emit(g, MOV_IMM(R0, 1));
	cg_emit(g, ALU64_REG(BPF_LSH, R0, R1));
	cg_emit(g, ALU64_REG(BPF_OR, R5, R0));
	cg_emit(g, STX(BPF_B, R4, 0, R5));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_jump(g, JA(), loop);
	cg_bind(g, end);
	cg_emit(g, MOV_IMM(R2, 0));
}

/* From the position in r2 of BUF (SIZE bytes) on while the byte there
 * is (IN) or is not (!IN) a delimiter, up to the NUL; r2 = where it
 * stops, then through scratch and bounded. */
static void walk_delims(struct cg *g, struct node *n, struct mem buf,
			struct mem map, int size, bool in)
{
	int loop = cg_label(g), next = cg_label(g), go = cg_label(g);
	int end = cg_label(g);

	cg_bind(g, loop);
	cg_jump(g, JMP_IMM(BPF_JLE, R2, size - 1), next);
	cg_jump(g, JA(), end);
	cg_bind(g, next);
	byte_at(g, buf, R2);
	cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), go);
	cg_jump(g, JA(), end);
	cg_bind(g, go);
	in_map(g, map);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, in ? 0 : 1), end);
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, 1));
	cg_jump(g, JA(), loop);
	cg_bind(g, end);
	forget(g, n, R2);
	clamp(g, R2, 0, size - 1);
}

/* strtok(s, delims), strtok(NULL, delims) as DTrace's: the delimiters
 * at the start skipped, the token up to the next one (or the end),
 * "" (D's NULL) when none is left.  What follows the token, its
 * delimiter first, is kept in the call's variable (sema_dstr.c) for
 * the next strtok(NULL, ...). */
static void strtok_code(struct cg *g, struct node *n, struct mem dst,
			const struct type *dt)
{
	struct var *v = n->args[2]->var;
	struct mem var = { cg_var_reg(g, v), v->slot }, buf, map, d;
	int size = v->ty->size, vslot = ty_slot_size(v->ty);
	int lslot = cg_stack_alloc(g, n), islot = cg_stack_alloc(g, n);
	int rslot = cg_stack_alloc(g, n);

	if (n->args[0]->ty->kind == TY_STR)
		cg_store(g, n->args[0], var, v->ty);
	buf = cg_scratch_alloc(g, vslot + 8, n);
	cg_move(g, buf, var, vslot);
	cg_zero(g, buf, vslot, vslot + 8);
	d = load(g, n, n->args[1], 0, lslot);
	map = cg_scratch_alloc(g, 32, n);
	delim_map(g, map, d, n->args[1]->ty->size);
	walk_delims(g, n, buf, map, size, true);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)islot, R2));
	walk_delims(g, n, buf, map, size, false);
	cg_emit(g, MOV_REG(R3, R2));
	cg_emit(g, LDX(BPF_DW, R4, RFP, (int16_t)islot));
	cg_emit(g, ALU64_REG(BPF_SUB, R3, R4));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)rslot, R3));
	/* the rest, from the delimiter (or the NUL) on */
	cg_zero(g, var, 0, vslot);
	cg_addr_of(g, R1, var);
	cg_addr_of(g, R3, buf);
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R2));
	cg_emit(g, MOV_IMM(R2, size));
	cg_call(g, BPF_FUNC_probe_read_kernel_str);
	put(g, n, dst, dt, buf, islot, rslot);
}

/* $psargs(start, end): the arguments a process was started with, in
 * its memory from START to END (its mm's arg_start and arg_end): at
 * most 79 bytes of them, each NUL followed by more made a space, as
 * psinfo_t's pr_psargs shows them. */
static void psargs(struct cg *g, struct node *n, struct mem dst,
		   const struct type *dt)
{
	int size = dt->size < 80 ? dt->size : 80;
	int slot = cg_stack_alloc(g, n);
	int done = cg_label(g), go = cg_label(g);

	cg_zero(g, dst, 0, ty_slot_size(dt));
	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)slot, R0));
	cg_int(g, n->args[1]);
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)slot));
	cg_emit(g, ALU64_REG(BPF_SUB, R0, R3));
	cg_jump(g, JMP_IMM(BPF_JSLE, R0, 0), done);
	cg_jump(g, JMP_IMM(BPF_JLE, R0, size - 1), go);
	cg_emit(g, MOV_IMM(R0, size - 1));
	cg_bind(g, go);
	cg_emit(g, MOV_REG(R2, R0));
	cg_addr_of(g, R1, dst);
	cg_call(g, BPF_FUNC_probe_read_user);
	for (int i = 0; i + 1 < size; i++) {
		int next = cg_label(g);

		cg_emit(g, LDX(BPF_B, R1, dst.base, (int16_t)(dst.off + i)));
		cg_jump(g, JMP_IMM(BPF_JNE, R1, 0), next);
		cg_emit(g, LDX(BPF_B, R1, dst.base, (int16_t)(dst.off + i + 1)));
		cg_jump(g, JMP_IMM(BPF_JEQ, R1, 0), next);
		cg_emit(g, ST_IMM(BPF_B, dst.base, (int16_t)(dst.off + i), ' '));
		cg_bind(g, next);
	}
	cg_bind(g, done);
}

bool cg_dstr_store(struct cg *g, struct node *n, struct mem dst,
		   const struct type *dt)
{
	int saved = g->scratch, saved_stack = g->stack;

	switch (n->builtin) {
	case F_STRJOIN:
		strjoin(g, n, dst, dt);
		break;
	case F_SUBSTR:
		substr(g, n, dst, dt);
		break;
	case F_STRCHR: case F_STRRCHR:
		strchr_code(g, n, dst, dt);
		break;
	case F_BASENAME: case F_DIRNAME:
		basename_code(g, n, dst, dt);
		break;
	case F_LLTOSTR:
		lltostr(g, n, dst, dt);
		break;
	case F_TOUPPER: case F_TOLOWER:
		case_code(g, n, dst, dt);
		break;
	case F_STRTOK:
		strtok_code(g, n, dst, dt);
		break;
	case F_DPSARGS:
		psargs(g, n, dst, dt);
		break;
	default:
		return false;
	}
	g->scratch = saved;
	g->stack = saved_stack;
	return true;
}
