/* cg_call.c - functions: records for user space (printf, print, time,
 * clear, zero, exit), delete(), str(), strcontains(), and the byte
 * values ntop(), macaddr() and buf(). */
#include "bpf/cg_int.h"

#include <string.h>

#include "base/arch.h"
#include "catalog/tracefs.h"

/* Linux's address families (<sys/socket.h> would clash with send()). */
#define FAMILY_INET 2
#define FAMILY_INET6 10

/* Send the SIZE-byte record at REC on the ring buffer (after D's
 * speculate(), tagged with the speculation); a full ring buffer counts
 * as a lost event. */
static void output(struct cg *g, struct mem rec, int size)
{
	int ok = cg_label(g);

	cg_spec_tag(g, rec);
	cg_ld_map(g, R1, RELOC_RINGBUF_FD, 0);
	cg_addr_of(g, R2, rec);
	cg_emit(g, MOV_IMM(R3, size));
	cg_emit(g, MOV_IMM(R4, 0));
	cg_call(g, BPF_FUNC_ringbuf_output);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), ok);
	cg_count_stat(g, STATS_LOST);
	cg_bind(g, ok);
}

/* Build the record of event E in scratch and send it on the ring
 * buffer; a full ring buffer counts as a lost event. */
static void send(struct cg *g, struct node *n, struct event_spec *e,
		 struct node **args, int nargs, struct mem *recp)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem rec = cg_tmp_alloc(g, e->size, n);

	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off,
			  (int32_t)n->cval));
	for (int i = 0; i < nargs && i < e->nargs; i++) {
		struct mem d = { rec.base, rec.off + e->args[i].off };

		cg_store(g, args[i], d, e->args[i].ty);
	}
	if (recp)
		*recp = rec;
	output(g, rec, e->size);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* join(argv): read pointers from the array until a NULL one (at most
 * JOIN_MAX), and each string into the record; user space prints them
 * joined.  The generic probe_read helpers read user or kernel memory. */
static void join(struct cg *g, struct node *n, struct event_spec *e)
{
	int saved = g->scratch, saved_stack = g->stack;
	int ssize = ALIGN_UP(g->c->strlen_, 8);
	struct mem rec = cg_scratch_alloc(g, e->size, n);
	int base = cg_stack_alloc(g, n), ptr = cg_stack_alloc(g, n);
	int done = cg_label(g);

	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off, (int32_t)n->cval));
	cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)(rec.off + 8), 0));
	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)base, R0));
	for (int i = 0; i < JOIN_MAX; i++) {
		struct mem s = { rec.base, rec.off + 16 + i * ssize };

		cg_emit(g, MOV_REG(R1, RFP));
		cg_emit(g, ALU64_IMM(BPF_ADD, R1, ptr));
		cg_emit(g, MOV_IMM(R2, 8));
		cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)base));
		if (i)
			cg_emit(g, ALU64_IMM(BPF_ADD, R3, 8 * i));
		cg_read_call(g, BPF_FUNC_probe_read, n);
		cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), done);
		cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)ptr));
		cg_jump(g, JMP_IMM(BPF_JEQ, R3, 0), done);
		cg_zero(g, s, 0, ssize);
		cg_addr_of(g, R1, s);
		cg_emit(g, MOV_IMM(R2, g->c->strlen_));
		cg_read_call(g, BPF_FUNC_probe_read_str, n);
		cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)(rec.off + 8), i + 1));
	}
	cg_bind(g, done);
	output(g, rec, e->size);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* override() in a uprobe (Linux 7.0 lets the program write the
 * registers): the return value in ax; at the entry also the return
 * itself, ip the return address on the stack and sp past it, so that
 * the kernel, seeing ip moved, runs nothing of the function. */
static void uoverride(struct cg *g, struct node *n)
{
	int done = cg_label(g);
	struct mem ra;

	g->uses_ctx = true;
	cg_int(g, n->args[0]);
	cg_emit(g, STX(BPF_DW, RCTX, PT_REGS_RET, R0));
	if (probe_has(g->ps, PF_RETVAL))
		return;
	ra = cg_tmp_alloc(g, 8, n);
	cg_addr_of(g, R1, ra);
	cg_emit(g, MOV_IMM(R2, 8));
	cg_emit(g, LDX(BPF_DW, R3, RCTX, PT_REGS_SP));
	cg_call(g, BPF_FUNC_probe_read_user);
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), done);
	cg_emit(g, LDX(BPF_DW, R1, ra.base, (int16_t)ra.off));
	cg_emit(g, STX(BPF_DW, RCTX, PT_REGS_IP, R1));
	cg_emit(g, LDX(BPF_DW, R1, RCTX, PT_REGS_SP));
	cg_emit(g, ALU64_IMM(BPF_ADD, R1, 8));
	cg_emit(g, STX(BPF_DW, RCTX, PT_REGS_SP, R1));
	cg_bind(g, done);
}

void cg_call_stmt(struct cg *g, struct node *n)
{
	/* sema keeps the event's index: the table moved as it grew (calls
	 * without an event, such as delete(), may find none) */
	struct event_spec *e = n->cval >= 0 && n->cval < g->c->nevents ?
			       &g->c->events[n->cval] : NULL;

	switch (n->builtin) {
	case F_PRINTF: case F_SYSTEM: case F_CAT: case F_ERRORF: case F_WARNF:
	case F_FREOPEN:
		if (n->builtin == F_PRINTF && g->ps->pin)
			cg_seq_printf(g, n, e);
		else
			send(g, n, e, n->args + 1, n->nargs - 1, NULL);
		break;
	case F_UNWATCH:
		send(g, n, e, n->args, 1, NULL);
		break;
	case F_SETOPT:
		send(g, n, e, n->args, n->nargs, NULL);
		break;
	case F_SIGNAL: case F_SIGNAL_THREAD: {
		int helper = n->builtin == F_SIGNAL ? BPF_FUNC_send_signal :
			     BPF_FUNC_send_signal_thread;

		cg_int(g, n->args[0]);
		cg_emit(g, MOV_REG(R1, R0));
		cg_call(g, helper);
		cg_check_helper(g, helper, n);
		break;
	}
	case F_DBCOPY: case F_DCOPYINTO:
		cg_dbcopy(g, n);
		break;
	case F_OVERRIDE:
		if (g->ret_slot) {	/* BPF_MODIFY_RETURN: the return */
			cg_int(g, n->args[0]);
			cg_emit(g, STX(BPF_DW, RFP, (int16_t)g->ret_slot, R0));
			break;
		}
		if (probe_has(g->ps, PF_USER)) {
			uoverride(g, n);
			break;
		}
		g->uses_ctx = true;
		cg_int(g, n->args[0]);
		cg_emit(g, MOV_REG(R2, R0));
		cg_emit(g, MOV_REG(R1, RCTX));
		cg_call(g, BPF_FUNC_override_return);
		break;
	case F_PRINT:
		if (e->kind == EV_PRINT_MAP) {
			/* record: id, top, div */
			int saved = g->scratch, saved_stack = g->stack;
			struct mem rec = cg_tmp_alloc(g, 24, n);

			cg_emit(g, ST_IMM(BPF_DW, rec.base, (int16_t)rec.off,
					  (int32_t)n->cval));
			for (int i = 1; i < 3; i++)
				cg_emit(g, ST_IMM(BPF_DW, rec.base,
						  (int16_t)(rec.off + 8 * i),
						  i < n->nargs ?
						  (int32_t)n->args[i]->cval : 0));
			output(g, rec, 24);
			g->scratch = saved;
			g->stack = saved_stack;
		} else {
			send(g, n, e, n->args, 1, NULL);
		}
		break;
	case F_JOIN:
		join(g, n, e);
		break;
	case F_SKBOUTPUT:
		cg_skboutput(g, n);
		break;
	case F_NORMALIZE: case F_DENORMALIZE:
		send(g, n, e, n->args + 1, n->nargs - 1, NULL);
		break;
	case F_TIME: case F_ZERO:
		send(g, n, e, NULL, 0, NULL);
		break;
	case F_CLEAR:	/* D's trunc(@a, n) sends n */
		send(g, n, e, n->args + 1, n->nargs - 1, NULL);
		break;
	case F_SPECULATE: case F_COMMIT: case F_DISCARD:
		cg_spec_stmt(g, n);
		break;
	case F_EXIT:
		send(g, n, e, n->args, n->nargs, NULL);
		/* D's exit() only asks to stop: the clause goes on, the
		 * clauses after it do not (cg.c's prologue) */
		if (!g->c->lang_d) {
			cg_jump(g, JA(), g->exit_label);
		} else {
			ir_ld64(&g->ir, R1, (uint64_t)(uint32_t)(STATS_DEXIT(g->c) * 8) << 32,
				RELOC_STATS, STATS_DEXIT(g->c));
			cg_emit(g, ST_IMM(BPF_DW, R1, 0, 1));
		}
		break;
	default:
		break;
	}
}

/* str(x[, n]) into DST: a copy of a string, or a string read from the
 * address x (kernel or user, whichever it is). */
/* A string of the process's memory into DST (SLOT bytes, zeroed), in
 * a program that may sleep: r2 its length (at most SIZE), r3 its
 * address.  The non-faulting helper first; if it fails, the page of
 * the address (and the next, when the string may reach it) is faulted
 * in by a one-byte bpf_copy_from_user, and the string read again: a
 * page the process has not touched yet is not mapped, and reads that
 * cannot fault find nothing there (a string constant passed to a
 * usdt probe guarded by a semaphore). */
static void user_str(struct cg *g, struct node *n, struct mem dst, int slot,
		     int size)
{
	int lslot = cg_stack_alloc(g, n), aslot = cg_stack_alloc(g, n);
	int done = cg_label(g), again = cg_label(g);

	g->sleeps = true;
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)lslot, R2));
	cg_emit(g, STX(BPF_DW, RFP, (int16_t)aslot, R3));
	cg_addr_of(g, R1, dst);
	cg_read_call(g, BPF_FUNC_probe_read_user_str, n);
	cg_jump(g, JMP_IMM(BPF_JSGT, R0, 0), done);
	cg_addr_of(g, R1, dst);
	cg_emit(g, MOV_IMM(R2, 1));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_call(g, BPF_FUNC_copy_from_user);
	/* the bytes left in the page: does the string go on past it? */
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_emit(g, ALU64_IMM(BPF_AND, R3, 4095));
	cg_emit(g, MOV_IMM(R4, 4096));
	cg_emit(g, ALU64_REG(BPF_SUB, R4, R3));
	cg_jump(g, JMP_IMM(BPF_JGE, R4, size), again);
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_emit(g, ALU64_REG(BPF_ADD, R3, R4));
	cg_addr_of(g, R1, dst);
	cg_emit(g, MOV_IMM(R2, 1));
	cg_call(g, BPF_FUNC_copy_from_user);
	cg_bind(g, again);
	cg_zero(g, dst, 0, slot);
	cg_addr_of(g, R1, dst);
	cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)lslot));
	cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_read_call(g, BPF_FUNC_probe_read_user_str, n);
	cg_bind(g, done);
}

void cg_path(struct cg *g, struct node *n, struct mem dst,
	     const struct type *dt)
{
	int size = n->ty->size < dt->size ? n->ty->size : dt->size;
	int skip = cg_label(g), done = cg_label(g);

	cg_zero(g, dst, 0, ty_slot_size(dt));
	/* the pointer straight from the context, moved by constant
	 * offsets: the verifier must see a struct path of the kernel's */
	cg_int(g, n->args[0]);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), skip);
	cg_emit(g, MOV_REG(R1, R0));
	cg_addr_of(g, R2, dst);
	cg_emit(g, MOV_IMM(R3, size));
	cg_call(g, BPF_FUNC_d_path);
	cg_jump(g, JMP_IMM(BPF_JSGE, R0, 0), done);
	/* too long (or unreachable): no half-written text */
	cg_zero(g, dst, 0, ty_slot_size(dt));
	cg_bind(g, skip);
	cg_bind(g, done);
}

/* The header before each packet: {u64 path index, u64 offset, u64
 * ktime ns, u64 length}; the kernel pads a sample to 8 bytes, so user
 * space needs the length.  bpf_skb_output(skb, map, flags, header,
 * size) copies the first LENGTH (flags' high half) bytes of the packet
 * after it, on this CPU's perf buffer; it fails (-EFAULT) when the
 * packet is shorter.  The skb comes straight from the context, moved by
 * constant offsets only: the verifier must see a struct sk_buff of
 * BTF, as for path(). */
void cg_skboutput(struct cg *g, struct node *n)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem h = cg_tmp_alloc(g, 32, n);
	int skip = cg_label(g), done = cg_label(g);

	cg_int(g, n->args[2]);
	cg_emit(g, ALU64_IMM(BPF_LSH, R0, 32));
	cg_emit(g, ALU64_IMM(BPF_RSH, R0, 32));
	cg_emit(g, STX(BPF_DW, h.base, (int16_t)(h.off + 24), R0));
	cg_emit(g, ST_IMM(BPF_DW, h.base, (int16_t)h.off, (int32_t)n->cval));
	cg_emit(g, ST_IMM(BPF_DW, h.base, (int16_t)(h.off + 8),
			  (int32_t)n->args[3]->cval));
	cg_call(g, BPF_FUNC_ktime_get_ns);
	cg_emit(g, STX(BPF_DW, h.base, (int16_t)(h.off + 16), R0));
	cg_int(g, n->args[1]);
	cg_jump(g, JMP_IMM(BPF_JEQ, R0, 0), skip);
	cg_emit(g, MOV_REG(R1, R0));
	cg_ld_map(g, R2, RELOC_SKB_FD, 0);
	cg_emit(g, LDX(BPF_DW, R3, h.base, (int16_t)(h.off + 24)));
	cg_emit(g, ALU64_IMM(BPF_LSH, R3, 32));
	cg_imm(g, R4, (int64_t)BPF_F_CURRENT_CPU);
	cg_emit(g, ALU64_REG(BPF_OR, R3, R4));
	cg_addr_of(g, R4, h);
	cg_emit(g, MOV_IMM(R5, 32));
	cg_call(g, BPF_FUNC_skb_output);
	cg_jump(g, JA(), done);
	cg_bind(g, skip);	/* no packet */
	cg_emit(g, MOV_IMM(R0, -14));	/* -EFAULT */
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_str_call(struct cg *g, struct node *n, struct mem dst,
		 const struct type *dt)
{
	struct node *a = n->args[0];
	int slot = ty_slot_size(dt);

	if (a->ty->kind == TY_STR) {
		int saved = g->scratch, saved_stack = g->stack;
		struct mem src;

		if (a->kind == N_STR || a->kind == N_POSITIONAL) {
			cg_literal(g, dst, dt, a->name,
				   a->len < (size_t)n->ty->size ? a->len
				   : (size_t)n->ty->size - 1);
			return;
		}
		src = cg_addr(g, a);
		cg_copy(g, dst, n->ty, src, a->ty);
		if (dt->size > n->ty->size)
			cg_zero(g, dst, ty_slot_size(n->ty), slot);
		g->scratch = saved;
		g->stack = saved_stack;
		return;
	}
	/* From an address: zero first, the helper does not pad. */
	cg_zero(g, dst, 0, slot);
	{
		int saved_stack = g->stack;
		int size = n->ty->size < dt->size ? n->ty->size : dt->size;

		if (n->nargs == 2 && !n->args[1]->is_const) {
			int lenslot = cg_stack_alloc(g, n);
			int ok1 = cg_label(g), ok2 = cg_label(g);

			cg_int(g, n->args[1]);
			/* n characters need n + 1 bytes; clamp to 1..size */
			cg_emit(g, ALU64_IMM(BPF_ADD, R0, 1));
			cg_jump(g, JMP_IMM(BPF_JLE, R0, size), ok1);
			cg_emit(g, MOV_IMM(R0, size));
			cg_bind(g, ok1);
			cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), ok2);
			cg_emit(g, MOV_IMM(R0, 1));
			cg_bind(g, ok2);
			cg_emit(g, STX(BPF_DW, RFP, (int16_t)lenslot, R0));
			cg_int(g, a);
			cg_emit(g, MOV_REG(R3, R0));
			cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)lenslot));
		} else {
			cg_int(g, a);
			cg_emit(g, MOV_REG(R3, R0));
			cg_emit(g, MOV_IMM(R2, size));
		}
		if (g->may_sleep && !a->ty->kernel) {
			user_str(g, n, dst, slot, size);
			g->stack = saved_stack;
			return;
		}
		cg_addr_of(g, R1, dst);
		/* the generic helper reads either memory, unless kptr() or
		 * uptr() said which */
		cg_read_call(g, a->ty->user || a->ty->kernel ?
			     cg_read_helper(g, a->ty, true) :
			     BPF_FUNC_probe_read_str, n);
		g->stack = saved_stack;
	}
}

/* SIZE bytes (4, 6 or 16) of string or buffer A into DST, in whole
 * words: both are zero-padded to 8 bytes, so DST's padding is zero. */
static void copy_bytes(struct cg *g, struct mem dst, struct node *a, int size)
{
	int saved = g->scratch, saved_stack = g->stack;
	struct mem src = cg_addr(g, a);

	if (a->ty->kind == TY_BUF)
		src.off += 8;
	for (int i = 0; i < size; i += 8) {
		cg_emit(g, LDX(BPF_DW, R1, src.base, (int16_t)(src.off + i)));
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)(dst.off + i), R1));
	}
	g->scratch = saved;
	g->stack = saved_stack;
}

/* ntop([af,] addr): {u64 af, u8 addr[16]}, the unused bytes zero so
 * that equal addresses are equal keys. */
static void ntop(struct cg *g, struct node *n, struct mem dst)
{
	struct node *a = n->args[n->nargs - 1];
	struct mem addr = { dst.base, dst.off + 8 };

	if (n->nargs == 2) {
		cg_int(g, n->args[0]);
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
	} else {
		cg_emit(g, ST_IMM(BPF_DW, dst.base, (int16_t)dst.off,
				  a->ty->size == 16 && a->ty->kind != TY_INT ?
				  FAMILY_INET6 : FAMILY_INET));
	}
	cg_zero(g, addr, 0, 16);
	if (a->ty->kind == TY_INT || a->ty->kind == TY_PTR) {
		cg_int(g, a);
		cg_emit(g, STX(BPF_W, addr.base, (int16_t)addr.off, R0));
	} else {
		copy_bytes(g, addr, a, a->ty->size);
	}
}

/* macaddr(x): 6 bytes, from x or read at the address x. */
static void macaddr(struct cg *g, struct node *n, struct mem dst)
{
	struct node *a = n->args[0];

	if (a->ty->kind != TY_INT && a->ty->kind != TY_PTR) {
		copy_bytes(g, dst, a, 6);
		return;
	}
	cg_zero(g, dst, 0, 8);
	cg_int(g, a);
	cg_emit(g, MOV_REG(R3, R0));
	cg_emit(g, MOV_IMM(R2, 6));
	cg_addr_of(g, R1, dst);
	cg_read_call(g, cg_read_helper(g, a->ty, false), n);
}

/* buf(x, n): {u64 length, u8 data[size]}, zeroed first (the helpers do
 * not pad, and equal buffers must be equal keys).  The length is n
 * clamped to the buffer's size; the bytes read are the length clamped
 * again to what a string x holds (its stack copy is read with
 * probe_read_kernel, which the verifier accepts with a bounded size). */
static void buf_read(struct cg *g, struct node *n, struct node *a,
		     struct node *l, struct mem dst);

static void buf(struct cg *g, struct node *n, struct mem dst)
{
	struct node *a = n->args[0], *l = n->nargs > 1 ? n->args[1] : NULL;

	if (!l) {	/* an array: its bytes, its size */
		struct mem data = { dst.base, dst.off + 8 };

		cg_zero(g, dst, 0, ty_slot_size(n->ty));
		cg_emit(g, ST_IMM(BPF_DW, dst.base, (int16_t)dst.off,
				  n->ty->size));
		cg_move(g, data, cg_addr(g, a), n->ty->size);
		return;
	}
	buf_read(g, n, a, l, dst);
}

static void buf_read(struct cg *g, struct node *n, struct node *a,
		     struct node *l, struct mem dst)
{
	int size = n->ty->size, saved = g->scratch, saved_stack = g->stack;
	int have = a->ty->kind == TY_STR && a->ty->size < size ? a->ty->size
							      : size;
	struct mem data = { dst.base, dst.off + 8 }, src = { 0, 0 };
	int aslot = 0, lslot = 0, helper = BPF_FUNC_probe_read_kernel;
	int64_t len = 0;

	cg_zero(g, dst, 0, ty_slot_size(n->ty));
	if (a->ty->kind == TY_STR) {
		src = cg_addr(g, a);
	} else {
		helper = cg_read_helper(g, a->ty, false);
		aslot = cg_stack_alloc(g, n);
		cg_int(g, a);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)aslot, R0));
	}
	if (l->is_const) {
		len = l->cval < size ? l->cval : size;
		cg_emit(g, ST_IMM(BPF_DW, dst.base, (int16_t)dst.off,
				  (int32_t)len));
		if (len > have)
			len = have;
	} else {
		int ok = cg_label(g), ok2 = cg_label(g);

		lslot = cg_stack_alloc(g, n);
		cg_int(g, l);
		cg_jump(g, JMP_IMM(BPF_JLE, R0, size), ok);
		cg_emit(g, MOV_IMM(R0, size));
		cg_bind(g, ok);
		cg_emit(g, STX(BPF_DW, dst.base, (int16_t)dst.off, R0));
		cg_jump(g, JMP_IMM(BPF_JLE, R0, have), ok2);
		cg_emit(g, MOV_IMM(R0, have));
		cg_bind(g, ok2);
		cg_emit(g, STX(BPF_DW, RFP, (int16_t)lslot, R0));
	}
	if (l->is_const && len == 0)
		goto out;
	cg_addr_of(g, R1, data);
	if (l->is_const)
		cg_emit(g, MOV_IMM(R2, (int32_t)len));
	else
		cg_emit(g, LDX(BPF_DW, R2, RFP, (int16_t)lslot));
	if (a->ty->kind == TY_STR)
		cg_addr_of(g, R3, src);
	else
		cg_emit(g, LDX(BPF_DW, R3, RFP, (int16_t)aslot));
	cg_read_call(g, helper, n);
out:
	g->scratch = saved;
	g->stack = saved_stack;
}

/* pton("ADDR"): its bytes, found by sema, zero-padded to the slot. */
static void pton(struct cg *g, struct node *n, struct mem dst)
{
	const uint8_t *b = n->extra;

	for (int i = 0; i < ty_slot_size(n->ty); i += 4) {
		uint32_t w = 0;

		for (int k = 0; k < 4 && i + k < n->ty->size; k++)
			w |= (uint32_t)b[i + k] << (8 * k);
		cg_emit(g, ST_IMM(BPF_W, dst.base, (int16_t)(dst.off + i),
				  (int32_t)w));
	}
}

void cg_bytes_call(struct cg *g, struct node *n, struct mem dst)
{
	switch (n->builtin) {
	case F_PTON:
		pton(g, n, dst);
		break;
	case F_NTOP:
		ntop(g, n, dst);
		break;
	case F_MACADDR:
		macaddr(g, n, dst);
		break;
	case F_BUF:
		buf(g, n, dst);
		break;
	default:
		break;
	}
}

/* The mask of the bytes of the needle's word in r2 that are not zero
 * (0xff each), into r2, without branches: a byte b is zero when
 * ((b & 0x7f) + 0x7f | b) has its top bit clear.  Clobbers r3, r4. */
void cg_nonzero_bytes(struct cg *g)
{
	cg_imm(g, R3, 0x7f7f7f7f7f7f7f7fLL);
	cg_emit(g, MOV_REG(R4, R2));
	cg_emit(g, ALU64_REG(BPF_AND, R4, R3));
	cg_emit(g, ALU64_REG(BPF_ADD, R4, R3));
	cg_emit(g, ALU64_REG(BPF_OR, R4, R2));
	cg_emit(g, ALU64_IMM(BPF_RSH, R4, 7));	/* 1 in each nonzero byte */
	cg_imm(g, R3, 0x0101010101010101LL);
	cg_emit(g, ALU64_REG(BPF_AND, R4, R3));
	cg_emit(g, ALU64_IMM(BPF_MUL, R4, 0xff));
	cg_emit(g, MOV_REG(R2, R4));
}

/* r0 = strcontains(haystack, needle), C's strstr (strstr(): the
 * position, or -1 when there is none): at each position i
 * (r7) of the haystack, until its NUL, the needle's bytes (those that
 * are not zero: a string's bytes past its end are) are compared a word
 * at a time, (h & mask) ^ needle, ORed over the needle's words: one
 * branch per position, so that the verifier's walk of the loop stays
 * short (a byte compare per branch ran past its limit on 200-byte
 * strings).  The haystack is copied into scratch, a map value, where
 * 8-byte loads at any offset are allowed (the stack's must be
 * aligned), with zeros past it for the needle's length; a literal
 * needle's words and masks are immediates, another's are read from
 * its copy, masks computed once. */
void cg_strcontains(struct cg *g, struct node *n)
{
	struct node *h = n->args[0], *nd = n->args[1];
	int saved = g->scratch, saved_stack = g->stack;
	int hsz = h->ty->size, hslot = ty_slot_size(h->ty);
	int outer = cg_label(g), mismatch = cg_label(g), next = cg_label(g);
	int none = cg_label(g), done = cg_label(g);
	bool lit = nd->kind == N_STR, index = n->builtin == F_STRSTR;
	int k = lit ? (int)strnlen(nd->name, nd->len) : 0;
	int nw = lit ? (k + 7) / 8 : ty_slot_size(nd->ty) / 8;
	struct mem copy, masks = { 0, 0 }, nm = { 0, 0 };

	if (lit && k > hsz - 1) {	/* longer than the haystack can be */
		cg_emit(g, MOV_IMM(R0, index ? -1 : 0));
		return;
	}
	copy = cg_scratch_alloc(g, hslot + 8 * nw, n);
	cg_store(g, h, copy, h->ty);
	cg_zero(g, copy, hslot, hslot + 8 * nw);
	if (!lit) {
		masks = cg_scratch_alloc(g, 8 * nw, n);
		nm = cg_addr(g, nd);
		for (int w = 0; w < nw; w++) {
			cg_emit(g, LDX(BPF_DW, R2, nm.base, (int16_t)(nm.off + 8 * w)));
			cg_nonzero_bytes(g);
			cg_emit(g, STX(BPF_DW, masks.base,
				       (int16_t)(masks.off + 8 * w), R2));
		}
	}
	cg_emit(g, MOV_IMM(R7, 0));
	cg_bind(g, outer);
	cg_jump(g, JMP_IMM(BPF_JGT, R7, hsz - 1), none);
	cg_addr_of(g, R1, copy);
	cg_emit(g, ALU64_REG(BPF_ADD, R1, R7));
	cg_emit(g, MOV_IMM(R0, 0));
	for (int w = 0; w < nw; w++) {
		cg_emit(g, LDX(BPF_DW, R2, R1, (int16_t)(8 * w)));
		if (lit) {
			uint64_t word = 0;
			int left = k - 8 * w;

			for (int b = 0; b < 8 && b < left; b++)
				word |= (uint64_t)(unsigned char)nd->name[8 * w + b] << (8 * b);
			if (left < 8) {
				cg_imm(g, R3, (int64_t)((1ULL << (8 * left)) - 1));
				cg_emit(g, ALU64_REG(BPF_AND, R2, R3));
			}
			cg_imm(g, R3, (int64_t)word);
		} else {
			cg_emit(g, LDX(BPF_DW, R3, masks.base,
				       (int16_t)(masks.off + 8 * w)));
			cg_emit(g, ALU64_REG(BPF_AND, R2, R3));
			cg_emit(g, LDX(BPF_DW, R3, nm.base, (int16_t)(nm.off + 8 * w)));
		}
		cg_emit(g, ALU64_REG(BPF_XOR, R2, R3));
		cg_emit(g, ALU64_REG(BPF_OR, R0, R2));
	}
	/* the verifier follows the fall-through first and keeps the jump
	 * for later: the exits fall through, so that one pending state,
	 * not two per position, waits while it walks the loop */
	cg_jump(g, JMP_IMM(BPF_JNE, R0, 0), mismatch);
	if (index)
		cg_emit(g, MOV_REG(R0, R7));
	else
		cg_emit(g, MOV_IMM(R0, 1));
	cg_jump(g, JA(), done);
	cg_bind(g, mismatch);
	cg_emit(g, LDX(BPF_B, R2, R1, 0));
	cg_jump(g, JMP_IMM(BPF_JNE, R2, 0), next);
	cg_bind(g, none);
	cg_emit(g, MOV_IMM(R0, index ? -1 : 0));
	cg_jump(g, JA(), done);
	cg_bind(g, next);
	cg_emit(g, ALU64_IMM(BPF_ADD, R7, 1));
	cg_jump(g, JA(), outer);
	cg_bind(g, done);
	g->scratch = saved;
	g->stack = saved_stack;
}
