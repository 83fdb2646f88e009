/* cg_ctx.c - what a probe's context holds: tracepoint record fields
 * (args.NAME), raw tracepoint arguments (argN), the iterator context
 * (ctx), members of kernel structs reached through pointers, and the
 * kernel and user stacks, and the builtins (pid, nsecs, cpu, ...);
 * uprobes' args.NAME are cg_uarg.c's. */
#include "bpf/cg_int.h"

#include <errno.h>
#include <string.h>

#include "base/arch.h"
#include "catalog/btf.h"
#include "catalog/tracefs.h"
#include "lang/lex.h"

static const struct tp_field *field(struct cg *g, struct node *n)
{
	return tp_field_named(g->ps->tp, n->name);
}

/* An integer or pointer field into r0, canonical for its type. */
void cg_args_int(struct cg *g, struct node *n)
{
	const struct tp_field *f;
	int size;

	if (g->ps->ops->ctx == CTX_REGS) {	/* a uprobe's, by DWARF */
		cg_uarg_int(g, n);
		return;
	}
	if (g->ps->ops->ctx == CTX_FUNC || g->ps->ops->ctx == CTX_RAWTP) {
		/* fentry, fexit, tp_btf: the context is the array of the
		 * arguments, named by BTF */
		const char **names;
		struct type **types, *ret;
		int id, k = g->ps->ops->ctx == CTX_RAWTP ?
			btf_tp_args(g->c, g->ps->target, &names, &types, &id) :
			btf_func_args(g->c, g->ps->func, &names, &types, &ret, &id);

		for (int i = 0; i < k; i++) {
			if (strcmp(names[i], n->name))
				continue;
			g->uses_ctx = true;
			cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)(8 * i)));
			cg_norm(g, R0, n->ty);
			return;
		}
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	f = field(g, n);

	if (!f) {
		cg_emit(g, MOV_IMM(R0, 0));
		return;
	}
	g->uses_ctx = true;
	size = f->kind == TPF_INT ? f->int_size : f->size > 8 ? 8 : f->size;
	cg_emit(g, LDX(cg_size_code(size), R0, RCTX, (int16_t)f->offset));
	/* extend by this tracepoint's own field type: the block's type may
	 * be wider when its tracepoints disagree */
	if (f->kind == TPF_INT)
		cg_norm(g, R0, ty_int(f->int_size, f->is_signed));
}

/* An array field of a tracepoint's record into DST, or a struct a
 * uprobe's function takes by value. */
void cg_args_array(struct cg *g, struct node *n, struct mem dst)
{
	const struct tp_field *f;
	struct mem src;

	if (g->ps->ops->ctx == CTX_REGS) {
		cg_uarg_value(g, n, dst);
		return;
	}
	f = field(g, n);
	src = (struct mem){ RCTX, f ? f->offset : 0 };
	cg_zero(g, dst, 0, ty_slot_size(n->ty));
	if (!f || f->size != n->ty->size)
		return;
	g->uses_ctx = true;
	cg_move(g, dst, src, f->size);
}

/* A string field into DST: char[N] in the record, or __data_loc. */
void cg_args_str(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt)
{
	const struct tp_field *f = field(g, n);
	int slot = ty_slot_size(dt), size;

	cg_zero(g, dst, 0, slot);
	if (!f)
		return;
	g->uses_ctx = true;
	if (f->kind == TPF_DATALOC) {
		/* u32: offset of the string in the record, length above */
		size = dt->size;
		cg_emit(g, LDX(BPF_W, R3, RCTX, (int16_t)f->offset));
		cg_emit(g, ALU64_IMM(BPF_AND, R3, 0xffff));
		cg_emit(g, ALU64_REG(BPF_ADD, R3, RCTX));
		cg_emit(g, MOV_IMM(R2, size));
		cg_addr_of(g, R1, dst);
		g->ctx_read = true;	/* of the record itself */
		cg_read_call(g, BPF_FUNC_probe_read_kernel_str, n);
		g->ctx_read = false;
		return;
	}
	/* char name[N]: copy it, keeping the last byte a terminator */
	size = f->size < dt->size ? f->size : dt->size;
	cg_emit(g, MOV_REG(R3, RCTX));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, f->offset));
	cg_emit(g, MOV_IMM(R2, size));
	cg_addr_of(g, R1, dst);
	g->ctx_read = true;
	cg_read_call(g, BPF_FUNC_probe_read_kernel, n);
	g->ctx_read = false;
	cg_zero(g, dst, dt->size - 1, dt->size);
}

/* argN: the Nth u64 of a raw tracepoint's context, the register of
 * the Nth argument in a uprobe's pt_regs, or a usdt note's operand. */
void cg_arg(struct cg *g, struct node *n)
{
	int off;

	switch (g->ps->ops->ctx) {
	case CTX_USDT:
		cg_usdt_arg(g, n);
		return;
	case CTX_REGS:
		off = pt_regs_arg((int)n->ival);
		break;
	default:	/* CTX_RAWTP: sema allows argN nowhere else */
		off = 8 * (int)n->ival;
		break;
	}
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)off));
}

/* sargN: the 8 bytes at sp + 8 * (N + 1) at a function's entry, where
 * sp points to the return address; from the process's stack in
 * uprobes, the kernel's in kprobes (0 when they cannot be read). */
void cg_sarg(struct cg *g, struct node *n)
{
	int saved = g->stack, slot = cg_stack_alloc(g, n);

	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)slot, 0));
	cg_reg(g, PT_REGS_SP);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, 8 * ((int)n->ival + 1)));
	cg_emit(g, MOV_IMM(R2, 8));
	cg_emit(g, MOV_REG(R1, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, slot));
	cg_read_call(g, g->ps->user_mem ? BPF_FUNC_probe_read_user :
		     BPF_FUNC_probe_read_kernel, n);
	cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)slot));
	g->stack = saved;
}

/* retval and reg("name") of uprobes: pt_regs fields. */
void cg_reg(struct cg *g, int off)
{
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)off));
}

/* ctx: the context pointer itself. */
void cg_ctx(struct cg *g)
{
	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R0, RCTX));
}

/* Where a pointer is NULL: r0 = 0 and a jump to NULLED; in D, a fault
 * at address 0. */
static void null_base(struct cg *g, int nulled)
{
	if (g->faults) {
		cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)(g->fault_slot + 8), 0));
		cg_fault(g, DFLT_BADADDR);
		return;
	}
	/* r0 must become a plain 0: the verifier does not narrow a
	 * trusted BTF pointer to a scalar on that branch */
	cg_emit(g, MOV_IMM(R0, 0));
	cg_jump(g, JA(), nulled);
}

/* r0 = the address of member N (a B_BTF_FIELD node), or 0 when the
 * pointer it goes through is NULL (jumping to NULLED then). */
static void member_addr(struct cg *g, struct node *n, int nulled)
{
	int nonnull = cg_label(g);

	cg_int(g, n->a);	/* a pointer, or a struct's address */
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), nonnull);
	null_base(g, nulled);
	cg_bind(g, nonnull);
	if (n->foff)
		cg_emit(g, ALU64_IMM(BPF_ADD, R0, n->foff));
}

int cg_read_helper(struct cg *g, const struct type *t, bool str)
{
	const struct probe_spec *ps = g->ps;
	const struct type *st = t->kind == TY_PTR ? t->pointee : t;
	bool kernel_type = (t->kind == TY_PTR && t->btf_id) ||
			   (st && st->kind == TY_STRUCT && st->btf_id);
	bool user = t->user || (ps->user_mem && !kernel_type && !t->kernel);

	if (user)
		return str ? BPF_FUNC_probe_read_user_str : BPF_FUNC_probe_read_user;
	return str ? BPF_FUNC_probe_read_kernel_str : BPF_FUNC_probe_read_kernel;
}

static int read_helper(struct cg *g, struct node *n, bool str)
{
	return cg_read_helper(g, n->a->ty, str);
}

/* r0 = the SIZE-byte integer at the address in r0, read through N->a's
 * memory (0 when it cannot be read), not yet sign-extended. */
static void read_int(struct cg *g, struct node *n, int size)
{
	int saved = g->stack, slot = cg_stack_alloc(g, n);

	if (g->c->dscratch && g->dbase_slot)	/* D's scratch: allocated? */
		cg_dscratch_load(g, size);
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)slot, 0));
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, size));
	cg_emit(g, MOV_REG(R1, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, slot));
	cg_read_call(g, read_helper(g, n, false), n);
	cg_emit(g, LDX(cg_size_code(size), R0, RFP, (int16_t)slot));
	g->stack = saved;
}

static bool aggregate(const struct type *t)
{
	/* a char[N] member is a string: its address too ($t->comm[0]) */
	return t->kind == TY_STRUCT || t->kind == TY_ARRAY ||
	       t->kind == TY_STR;
}

bool cg_in_target(const struct node *n)
{
	switch (n->kind) {
	case N_FIELD:
		return n->builtin == B_BTF_FIELD &&
		       (n->a->ty->kind == TY_PTR || cg_in_target(n->a) ||
			(n->a->kind == N_BUILTIN && n->a->builtin == B_CTX));
	case N_UNOP:
		return n->op == T_STAR;
	case N_INDEX:
		return n->a->ty->kind == TY_PTR || cg_in_target(n->a);
	default:
		return false;
	}
}

/* Shift and mask a bitfield read as 8 bytes into its value (a signed
 * one's sign extended). */
static void bitfield(struct cg *g, struct node *n)
{
	if (n->fshift)
		cg_emit(g, ALU64_IMM(BPF_RSH, R0, n->fshift));
	if (n->ty->is_signed && n->fbits < 64) {	/* as C: the sign */
		cg_emit(g, ALU64_IMM(BPF_LSH, R0, 64 - n->fbits));
		cg_emit(g, ALU64_IMM(BPF_ARSH, R0, 64 - n->fbits));
	} else if (n->fbits < 32) {
		cg_emit(g, ALU64_IMM(BPF_AND, R0, (int32_t)((1u << n->fbits) - 1)));
	} else if (n->fbits < 64) {
		cg_emit(g, ALU64_IMM(BPF_LSH, R0, 64 - n->fbits));
		cg_emit(g, ALU64_IMM(BPF_RSH, R0, 64 - n->fbits));
	}
}

/* R = the 8 bytes at M + OFF, little-endian, those at or past END
 * (the struct's size) read as 0; clobbers r5. */
static void load_bytes(struct cg *g, int r, struct mem m, int off, int end)
{
	cg_emit(g, MOV_IMM(r, 0));
	for (int i = 7; i >= 0; i--) {
		cg_emit(g, ALU64_IMM(BPF_LSH, r, 8));
		if (off + i < end) {
			cg_emit(g, LDX(BPF_B, R5, m.base, (int16_t)(m.off + off + i)));
			cg_emit(g, ALU64_REG(BPF_OR, r, R5));
		}
	}
}

/* A member of a struct value in BPF's memory ($s.x of $s = *p): read
 * in place.  A bitfield's 8 bytes may pass the struct's end, into the
 * slot's padding or the next slot, which is fine: the mask drops
 * them. */
static void value_member(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem m = cg_addr(g, n->a);
	int size = n->fbits ? 1 : n->ty->size;

	if (n->fbits) {
		/* byte by byte: the 8 bytes need not be aligned */
		load_bytes(g, R0, m, n->foff, n->a->ty->size);
		bitfield(g, n);
	} else {
		cg_emit(g, LDX(cg_size_code(size), R0, m.base, (int16_t)(m.off + n->foff)));
		cg_norm(g, R0, n->ty);
	}
	g->scratch = saved;
	g->stack = saved_stack;
}

/* Bitfield member N of a value in BPF's memory = r0: its bits replaced
 * in the bytes around them, which are written back one at a time. */
static void bitfield_store(struct cg *g, struct node *n)
{
	struct mem m = cg_addr(g, n->a);
	uint64_t mask = n->fbits >= 64 ? ~0ull : (1ull << n->fbits) - 1;
	int end = n->a->ty->size;

	cg_imm(g, R2, (int64_t)mask);
	cg_emit(g, ALU64_REG(BPF_AND, R0, R2));
	if (n->fshift)
		cg_emit(g, ALU64_IMM(BPF_LSH, R0, n->fshift));
	load_bytes(g, R1, m, n->foff, end);
	cg_imm(g, R2, (int64_t)~(mask << n->fshift));
	cg_emit(g, ALU64_REG(BPF_AND, R1, R2));
	cg_emit(g, ALU64_REG(BPF_OR, R1, R0));
	for (int i = 0; i < 8 && n->foff + i < end; i++) {
		cg_emit(g, STX(BPF_B, m.base, (int16_t)(m.off + n->foff + i), R1));
		cg_emit(g, ALU64_IMM(BPF_RSH, R1, 8));
	}
}

void cg_member_store(struct cg *g, struct node *n)
{
	struct node *t = n->a;
	struct mem m;

	if (!ty_is_word(t->ty)) {	/* a struct, an array, a string */
		cg_store(g, n->b, cg_addr(g, t), t->ty);
		return;
	}
	cg_assigned(g, n, t->ty);
	if (t->kind == N_FIELD && t->fbits) {
		bitfield_store(g, t);
		return;
	}
	m = cg_addr(g, t);
	cg_emit(g, STX(cg_size_code(t->ty->size), m.base, (int16_t)m.off, R0));
}

/* Integer, pointer or struct-address member into r0. */
void cg_btf_int(struct cg *g, struct node *n)
{
	int done = cg_label(g);
	int size = n->fbits ? 8 : aggregate(n->ty) ? 0 : n->ty->size;

	if (!cg_in_target(n)) {
		value_member(g, n);
		return;
	}

	/* The iterator context is read directly (the verifier types it). */
	if (n->a->kind == N_BUILTIN && n->a->builtin == B_CTX) {
		g->uses_ctx = true;
		cg_emit(g, LDX(cg_size_code(size), R0, RCTX, (int16_t)n->foff));
		cg_norm(g, R0, n->ty);
		return;
	}
	member_addr(g, n, done);
	if (aggregate(n->ty)) {	/* an embedded struct or array: its address */
		cg_bind(g, done);
		return;
	}
	read_int(g, n, size);
	if (n->fbits)
		bitfield(g, n);
	else
		cg_norm(g, R0, n->ty);
	cg_bind(g, done);
}

/* r0 = the address of element N (N_INDEX in target memory) of an array
 * reached through a pointer, or of p[i]; 0, jumping to NULLED, when the
 * base is NULL. */
static void index_addr(struct cg *g, struct node *n, int nulled)
{
	int size = n->ty->size, saved = g->stack;
	int nonnull = cg_label(g);

	cg_int(g, n->a);	/* the pointer, or the array's address */
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), nonnull);
	null_base(g, nulled);
	cg_bind(g, nonnull);
	if (n->b->is_const) {
		cg_imm(g, R1, n->b->cval * size);
		cg_emit(g, ALU64_REG(BPF_ADD, R0, R1));
		return;
	}
	{
		int slot = cg_stack_alloc(g, n);

		cg_emit(g, STX(BPF_DW, RFP, (int16_t)slot, R0));
		cg_int(g, n->b);
		cg_imm(g, R1, size);
		cg_emit(g, ALU64_REG(BPF_MUL, R0, R1));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)slot));
		cg_emit(g, ALU64_REG(BPF_ADD, R0, R1));
		g->stack = saved;
	}
}

/* An element of an array value in BPF's memory ($a[i] of $a = p->arr),
 * an integer: read in place; a variable index out of the array gives
 * 0. */
static void value_elem(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem m = cg_addr(g, n->a);
	int size = n->ty->size, out = cg_label(g), done = cg_label(g);

	if (n->b->is_const) {
		cg_emit(g, LDX(cg_size_code(size), R0, m.base,
			       (int16_t)(m.off + n->b->cval * size)));
		cg_norm(g, R0, n->ty);
		g->scratch = saved;
		g->stack = saved_stack;
		return;
	}
	cg_int(g, n->b);
	/* a string's characters: its size */
	cg_jump(g, JMP_IMM(BPF_JGE, R0, n->a->ty->kind == TY_STR ?
			   n->a->ty->size : n->a->ty->nelem), out);
	cg_imm(g, R1, size);
	cg_emit(g, ALU64_REG(BPF_MUL, R0, R1));
	cg_addr_of(g, R1, m);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R0));
	cg_emit(g, LDX(cg_size_code(size), R0, R1, 0));
	cg_norm(g, R0, n->ty);
	cg_jump(g, JA(), done);
	cg_bind(g, out);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_index(struct cg *g, struct node *n)
{
	int done = cg_label(g);

	if (!cg_in_target(n)) {
		value_elem(g, n);
		return;
	}
	index_addr(g, n, done);
	if (!aggregate(n->ty)) {
		read_int(g, n, n->ty->size);
		cg_norm(g, R0, n->ty);
	}
	cg_bind(g, done);
}

/* A struct or array in target memory into DST, read whole. */
void cg_read_value(struct cg *g, struct node *n, struct mem dst)
{
	int done = cg_label(g);

	cg_zero(g, dst, 0, ty_slot_size(n->ty));
	cg_int(g, n);	/* its address */
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, n->ty->size));
	cg_addr_of(g, R1, dst);
	cg_read_call(g, read_helper(g, n, false), n);
	cg_bind(g, done);
}

/* *p into r0: the integer at the address p holds (0 when it cannot be
 * read), or, for a pointer to a struct, the struct's address itself. */
void cg_deref(struct cg *g, struct node *n)
{
	int size = aggregate(n->ty) ? 0 : n->ty->size;

	cg_int(g, n->a);
	if (!size)
		return;
	read_int(g, n, size);
	cg_norm(g, R0, n->ty);
}

/* A char[N] member into DST as a string.  The read may take N + 1
 * bytes where DST has room, so that an array whose N characters have
 * no NUL prints whole (the helper stops at a NUL, and writes one after
 * at most size - 1 bytes), as bpftrace prints it. */
void cg_btf_str(struct cg *g, struct node *n, struct mem dst,
		const struct type *dt)
{
	int done = cg_label(g);
	int size = n->ty->size + 1;

	if (size > ty_slot_size(dt))
		size = ty_slot_size(dt);
	if (!cg_in_target(n)) {	/* a member of a struct value */
		int saved = g->scratch, saved_stack = g->stack;
		struct mem m = cg_addr(g, n);
		int len = n->ty->size < dt->size ? n->ty->size : dt->size;

		cg_zero(g, dst, 0, ty_slot_size(dt));
		cg_move(g, dst, m, len);
		if (len == dt->size && n->ty->size > dt->size)
			cg_zero(g, dst, dt->size - 1, dt->size);
		g->scratch = saved;
		g->stack = saved_stack;
		return;
	}
	cg_zero(g, dst, 0, ty_slot_size(dt));
	member_addr(g, n, done);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, size));
	cg_addr_of(g, R1, dst);
	cg_read_call(g, read_helper(g, n, true), n);
	cg_bind(g, done);
}

/* pid(curr_ns), tid(curr_ns): r0 = tgid << 32 | pid as seen from
 * sonde's pid namespace.  The loader sets the namespace's device and
 * inode, or inode 0 when sonde runs in the initial namespace, where the
 * plain helper gives the same numbers (the verifier drops the branch
 * not taken).  A task outside that namespace reads as 0.  User stacks
 * and usym() carry the process so, as sonde's /proc and the kernel's
 * side-band records (usyms.c) name it. */
void cg_ns_pid(struct cg *g)
{
	int save = g->stack, off = cg_stack_alloc(g, NULL);
	int plain = cg_label(g), done = cg_label(g);

	ir_ld64(&g->ir, R3, 0, RELOC_PIDNS_INO, 0);
	cg_jump(g, JMP_IMM(BPF_JEQ, R3, 0), plain);
	ir_ld64(&g->ir, R1, 0, RELOC_PIDNS_DEV, 0);
	cg_emit(g, MOV_REG(R2, R3));
	cg_emit(g, MOV_REG(R3, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R3, off));
	cg_emit(g, MOV_IMM(R4, 8));
	cg_emit(g, ST_IMM(BPF_DW, RFP, off, 0));
	cg_call(g, BPF_FUNC_get_ns_current_pid_tgid);
	/* struct bpf_pidns_info { u32 pid; u32 tgid; } */
	cg_emit(g, LDX(BPF_W, R0, RFP, off + 4));
	cg_emit(g, LDX(BPF_W, R1, RFP, off));
	cg_emit(g, ALU64_IMM(BPF_LSH, R0, 32));
	cg_emit(g, ALU64_REG(BPF_OR, R0, R1));
	cg_jump(g, JA(), done);
	cg_bind(g, plain);
	cg_call(g, BPF_FUNC_get_current_pid_tgid);
	cg_bind(g, done);
	g->stack = save;
}

/* kstack into r0: 1 + the id bpf_get_stackid gives the stack in the map
 * of its depth, or 0 when there is none, so that a zeroed variable or a
 * missing map value is the empty stack too.  -EFAULT means there is no
 * stack of that kind (a probe in user space has no kernel stack, a
 * kernel thread no user stack); any other failure (the hash bucket
 * holds another stack, the map is full) is counted.
 * Flags 0: BPF_F_REUSE_STACKID would let a new stack take over an id
 * that map keys already hold, and BPF_F_FAST_STACK_CMP would take two
 * stacks with the same 32-bit hash for one.
 *
 * ustack: the same with BPF_F_USER_STACK, and the process's id in the
 * high 32 bits (user addresses mean something only in their process),
 * as bpftrace does: pid << 32 | (1 + id).  The process is noted for
 * user space (cg_note_pid).  Kernel and user stacks of one depth share
 * a map: ids are hashes of the addresses, which never overlap. */
void cg_stackdepth(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack, ok = cg_label(g);
	struct mem m = cg_tmp_alloc(g, 127 * 8, n);

	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R1, RCTX));
	cg_addr_of(g, R2, m);
	cg_emit(g, MOV_IMM(R3, 127 * 8));
	cg_emit(g, MOV_IMM(R4, n->builtin == B_USTACKDEPTH ? BPF_F_USER_STACK : 0));
	cg_call(g, BPF_FUNC_get_stack);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_emit(g, MOV_IMM(R0, 0));	/* no stack: none deep */
	cg_bind(g, ok);
	cg_emit(g, ALU64_IMM(BPF_RSH, R0, 3));
	g->scratch = saved;
	g->stack = saved_stack;
}

/* D's caller (ucaller): the second frame of the kernel's (process's)
 * stack, where the probed function returns to; 0 when there is none. */
void cg_caller(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack, none = cg_label(g);
	int done = cg_label(g);
	struct mem m = cg_tmp_alloc(g, 16, n);

	g->uses_ctx = true;
	cg_emit(g, MOV_REG(R1, RCTX));
	cg_addr_of(g, R2, m);
	cg_emit(g, MOV_IMM(R3, 16));
	cg_emit(g, MOV_IMM(R4, n->builtin == B_UCALLER ? BPF_F_USER_STACK : 0));
	cg_call(g, BPF_FUNC_get_stack);
	cg_jump(g, JMP_IMM(BPF_JSLT, R0, 16), none);
	cg_addr_of(g, R1, m);
	cg_emit(g, LDX(BPF_DW, R0, R1, 8));
	cg_jump(g, JA(), done);
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, 0));
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_kstack(struct cg *g, struct node *n)
{
	int ok = cg_label(g), none = cg_label(g), saved = g->stack;
	bool user = n->ty->suser;

	if (user && (g->c->dwarf_unwind ||
		     (n->kind == N_CALL && n->builtin == F_DW_USTACK))) {
		cg_dwstack(g, n);
		goto pid;
	}
	g->uses_ctx = true;
	g->atomic = true;	/* no stack trace maps in sleepable programs */
	cg_emit(g, MOV_REG(R1, RCTX));
	cg_ld_map(g, R2, RELOC_STACK_FD,
		  sema_stack_map(g->c, n->ty->sdepth));
	cg_emit(g, MOV_IMM(R3, user ? BPF_F_USER_STACK : 0));
	cg_call(g, BPF_FUNC_get_stackid);
	cg_check_helper(g, BPF_FUNC_get_stackid, n);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), ok);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, -EFAULT), none);
	cg_count_stat(g, STATS_STACKS(g->c));
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, -1));
	cg_bind(g, ok);
	cg_emit(g, ALU64_IMM(BPF_ADD, R0, 1));
pid:
	if (user) {
		int done = cg_label(g);
		int idslot = cg_stack_alloc(g, n), pidslot;

		cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), done);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)idslot, R0));
		cg_ns_pid(g);	/* as usyms knows it: sonde's namespace */
		cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
		pidslot = cg_note_pid(g, n);
		cg_emit(g, LDX(BPF_DW, R0, RFP, (int16_t)pidslot));
		cg_emit(g, ALU64_IMM(BPF_LSH, R0, 32));
		cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)idslot));
		cg_emit(g, ALU64_REG(BPF_OR, R0, R1));
		cg_bind(g, done);
	}
	g->stack = saved;
}

/* The first time a program sees process r0 (its tgid), tell user space,
 * which reads the process's mappings while it still lives (usyms.c).
 * "Seen" is an LRU hash shared by all programs; when the record cannot
 * be sent (ring buffer full) the process is forgotten again so that a
 * later event retries.  Returns the stack slot holding the tgid (the
 * caller gives it back with g->stack); clobbers r0-r5. */
int cg_note_pid(struct cg *g, struct node *n)
{
	int known = cg_label(g);
	int pid = cg_stack_alloc(g, n), rec;

	cg_emit(g, STX(BPF_DW, RFP, (int16_t)pid, R0));
	cg_ld_map(g, R1, RELOC_USEEN_FD, 0);
	cg_emit(g, MOV_REG(R2, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, pid));
	cg_call(g, BPF_FUNC_map_lookup_elem);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), known);
	cg_ld_map(g, R1, RELOC_USEEN_FD, 0);
	cg_emit(g, MOV_REG(R2, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, pid));
	cg_emit(g, MOV_REG(R3, R2));
	cg_emit(g, MOV_IMM(R4, BPF_NOEXIST));
	cg_call(g, BPF_FUNC_map_update_elem);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), known);	/* another CPU did */
	/* record: u64 EVID_USYM_PID, u64 tgid */
	cg_stack_alloc(g, n);
	rec = cg_stack_alloc(g, n);
	cg_emit(g, ST_IMM(BPF_DW, RFP, (int16_t)rec, (int32_t)EVID_USYM_PID));
	cg_emit(g, LDX(BPF_DW, R1, RFP, (int16_t)pid));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)(rec + 8), R1));
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	cg_emit(g, MOV_REG(R2, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, rec));
	cg_emit(g, MOV_IMM(R3, 16));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), known);
	cg_ld_map(g, R1, RELOC_USEEN_FD, 0);
	cg_emit(g, MOV_REG(R2, RFP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R2, pid));
	cg_call(g, BPF_FUNC_map_delete_elem);
	cg_bind(g, known);
	return pid;
}

/* usym(addr) into DST: the address and the process it belongs to. */
void cg_usym(struct cg *g, struct node *n, struct mem dst)
{
	int saved = g->stack;

	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
	cg_ns_pid(g);
	cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
	cg_emit(g, STX(BPF_DW, dst.base, (int16_t)(dst.off + 8), R0));
	cg_note_pid(g, n);
	g->stack = saved;
}

/* retval: rax in pt_regs, or after the arguments in a fexit's context. */
void cg_retval(struct cg *g, struct node *n)
{
	if (g->ps->ops->ctx == CTX_FUNC) {
		const char **names;
		struct type **types, *ret;
		int id, k = g->ps->attach_prog_id ? g->ps->bpf_nargs :
			btf_func_args(g->c, g->ps->func, &names, &types, &ret,
				      &id);

		g->uses_ctx = true;
		cg_emit(g, LDX(BPF_DW, R0, RCTX, (int16_t)(8 * (k > 0 ? k : 0))));
		cg_norm(g, R0, n->ty);
		return;
	}
	cg_reg(g, PT_REGS_RET);
	cg_norm(g, R0, n->ty);
}

void cg_place_addr(struct cg *g, struct node *n, int nulled)
{
	int nonnull = cg_label(g);

	if (n->kind == N_INDEX) {
		index_addr(g, n, nulled);
		return;
	}
	if (n->kind == N_FIELD) {
		member_addr(g, n, nulled);
		return;
	}
	cg_int(g, n->a);	/* *p */
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), nonnull);
	null_base(g, nulled);
	cg_bind(g, nonnull);
}

void cg_builtin(struct cg *g, struct node *n)
{
	int done = -1;

	switch (n->builtin) {
	case B_PID: case B_TID:
		/* today's bpftrace: bare pid is pid(curr_ns) */
		if (n->ival == 1 || (!n->ival && !g->c->dialect_017))
			cg_ns_pid(g);
		else
			cg_call(g, BPF_FUNC_get_current_pid_tgid);
		if (n->builtin == B_PID)
			cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
		else
			cg_emit(g, ALU32_REG(BPF_MOV, R0, R0));
		break;
	case B_UID: case B_USERNAME:
		cg_call(g, BPF_FUNC_get_current_uid_gid);
		cg_emit(g, ALU32_REG(BPF_MOV, R0, R0));
		break;
	case B_GID:
		cg_call(g, BPF_FUNC_get_current_uid_gid);
		cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
		break;
	case B_NSECS:
		/* D's timestamp: read once per firing, as DTrace caches it
		 * (sema gave it a variable, zeroed at the program's start) */
		if (n->var) {
			done = cg_label(g);
			cg_emit(g, LDX(BPF_DW, R0, cg_var_reg(g, n->var),
				       (int16_t)n->var->slot));
			cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), done);
		}
		/* today's bpftrace: bare nsecs is nsecs(boot) */
		cg_call(g, n->ival == 2 || (!n->ival && !g->c->dialect_017) ?
			   BPF_FUNC_ktime_get_boot_ns :
			   /* sw_tai (4): bpftrace's estimate for kernels
			    * without the TAI helper; this one is exact */
			   n->ival >= 3 ? BPF_FUNC_ktime_get_tai_ns :
			   BPF_FUNC_ktime_get_ns);
		if (n->var) {
			cg_emit(g, STX(BPF_DW, cg_var_reg(g, n->var),
				       (int16_t)n->var->slot, R0));
			cg_bind(g, done);
		}
		break;
	case B_ELAPSED:
		cg_call(g, BPF_FUNC_ktime_get_ns);
		ir_ld64(&g->ir, R1, 0, RELOC_START_NS, 0);
		cg_emit(g, ALU64_REG(BPF_SUB, R0, R1));
		break;
	case B_CPU:
		cg_call(g, BPF_FUNC_get_smp_processor_id);
		break;
	case B_PROBEID:
		cg_emit(g, MOV_IMM(R0, cg_probe_id(g)));
		break;
	case B_CGROUP:
		cg_call(g, BPF_FUNC_get_current_cgroup_id);
		break;
	case B_RAND:
		cg_call(g, BPF_FUNC_get_prandom_u32);
		break;
	case B_NCPUS:
		ir_ld64(&g->ir, R0, 0, RELOC_NCPUS, 0);
		break;
	case B_CURTASK:
		cg_call(g, BPF_FUNC_get_current_task);
		break;
	case B_JIFFIES:
		cg_call(g, BPF_FUNC_jiffies64);
		break;
	case B_NUMAID:
		cg_call(g, BPF_FUNC_get_numa_node_id);
		break;
	case B_CPID:
		ir_ld64(&g->ir, R0, 0, RELOC_CPID, 0);
		break;
	case B_USERMODE:	/* x86-64: the low bits of cs are the ring */
		cg_reg(g, pt_regs_offset("cs"));
		cg_emit(g, ALU64_IMM(BPF_AND, R0, 3));
		cg_emit(g, ALU64_IMM(BPF_RSH, R0, 1));
		cg_emit(g, ALU64_IMM(BPF_AND, R0, 1));
		break;
	case B_RETVAL:
		cg_retval(g, n);
		break;
	case B_KSTACK: case B_USTACK:
		cg_kstack(g, n);
		break;
	case B_STACKDEPTH: case B_USTACKDEPTH:
		cg_stackdepth(g, n);
		break;
	case B_CALLER: case B_UCALLER:
		cg_caller(g, n);
		break;
	default:
		cg_emit(g, MOV_IMM(R0, 0));
	}
}
