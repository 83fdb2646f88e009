/* cg_call.c - functions: records for user space (printf, print, time,
 * clear, zero, exit), delete(), and str(). */
#include "cg.h"

#include <string.h>

/* Send the SIZE-byte record at REC on the ring buffer; a full ring
 * buffer counts as a lost event. */
static void output(struct cg *g, struct mem rec, int size)
{
	int ok = cg_label(g);

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

void cg_call_stmt(struct cg *g, struct node *n)
{
	/* sema keeps the event's index: the table moved as it grew (calls
	 * without an event, such as delete(), may find none) */
	struct event_spec *e = n->cval >= 0 && n->cval < g->c->nevents ?
			       &g->c->events[n->cval] : NULL;

	switch (n->builtin) {
	case F_PRINTF: case F_SYSTEM:
		send(g, n, e, n->args + 1, n->nargs - 1, NULL);
		break;
	case F_SIGNAL:
		cg_int(g, n->args[0]);
		cg_emit(g, MOV_REG(R1, R0));
		cg_call(g, BPF_FUNC_send_signal);
		break;
	case F_OVERRIDE:
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
	case F_TIME: case F_CLEAR: case F_ZERO:
		send(g, n, e, NULL, 0, NULL);
		break;
	case F_EXIT:
		send(g, n, e, NULL, 0, NULL);
		cg_jump(g, JA(), g->exit_label);
		break;
	case F_DELETE:
		cg_map_delete(g, n->args[0]);
		break;
	default:
		break;
	}
}

/* str(x[, n]) into DST: a copy of a string, or a string read from the
 * address x (kernel or user, whichever it is). */
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
		cg_addr_of(g, R1, dst);
		cg_read_call(g, BPF_FUNC_probe_read_str, n);
		g->stack = saved_stack;
	}
}
