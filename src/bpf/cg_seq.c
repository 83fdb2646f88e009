/* cg_seq.c - printf() in a pinned iterator (iter:KIND:PIN): it runs
 * when a process reads the pin file, long after sonde is gone, so its
 * text goes to that reader through the kernel's bpf_seq_printf(), not
 * to sonde's ring buffer.  sema_printf.c allowed only what the kernel
 * formats: %d %i %u %o %x %X %c %p, %s of a string, 12 values. */
#include "bpf/cg_int.h"

#include <stdio.h>
#include <string.h>

#include "lang/printf.h"

/* The kernel's format for PIECES of FMT: an integer conversion reads
 * a 64-bit value (ll), %p prints as bpftrace prints it (0x and hex).
 * Returns its length; BUF holds CAP bytes. */
static size_t kernel_format(const char *fmt, const struct fmt_piece *pieces,
			    int np, char *buf, size_t cap)
{
	size_t n = 0;

	for (int i = 0; i < np && n + 40 < cap; i++) {
		const struct fmt_piece *p = &pieces[i];

		if (p->want == FMT_WANT_NONE) {
			if (p->conv == '%')
				n += (size_t)snprintf(buf + n, cap - n, "%%%%");
			else
				for (size_t k = 0; k < p->len && n + 2 < cap; k++)
					buf[n++] = fmt[p->off + k];
			continue;
		}
		n += (size_t)snprintf(buf + n, cap - n, "%s%%%s",
				      p->conv == 'p' ? "0x" : "", p->flags);
		if (p->width >= 0)
			n += (size_t)snprintf(buf + n, cap - n, "%d", p->width);
		if (p->prec >= 0)
			n += (size_t)snprintf(buf + n, cap - n, ".%d", p->prec);
		n += (size_t)snprintf(buf + n, cap - n, "%s%c",
				      strchr("sc", p->conv) ? "" : "ll",
				      p->conv == 'p' ? 'x' : p->conv);
	}
	buf[n] = 0;
	return n;
}

void cg_seq_printf(struct cg *g, struct node *n, const struct event_spec *e)
{
	int saved = g->scratch, saved_stack = g->stack, np;
	struct fmt_piece pieces[128];
	char kfmt[1024];
	size_t len, eoff;
	const char *emsg;
	struct mem rec, data, fm;

	np = fmt_parse(e->fmt, e->fmt_len, pieces, 128, &eoff, &emsg);
	if (np < 0 || np > 128)		/* sema said so */
		return;
	len = kernel_format(e->fmt, pieces, np, kfmt, sizeof(kfmt));
	rec = cg_tmp_alloc(g, e->size, n);
	data = cg_tmp_alloc(g, 8 * (e->nargs ? e->nargs : 1), n);
	fm = cg_tmp_alloc(g, (int)ALIGN_UP(len + 1, 8), n);
	cg_literal(g, fm, ty_str(&g->c->arena, (int)len + 1), kfmt, len);
	for (int i = 0; i < e->nargs; i++) {
		struct node *a = n->args[i + 1];
		struct mem d = { rec.base, rec.off + e->args[i].off };

		if (a->ty->kind == TY_STR) {	/* %s reads it from memory */
			cg_store(g, a, d, e->args[i].ty);
			cg_addr_of(g, R0, d);
		} else {
			cg_int(g, a);
		}
		cg_emit(g, STX(BPF_DW, data.base, (int16_t)(data.off + 8 * i),
			       R0));
	}
	/* the iterator's context starts with its bpf_iter_meta, which
	 * starts with the seq_file */
	g->uses_ctx = true;
	cg_emit(g, LDX(BPF_DW, R1, RCTX, 0));
	cg_emit(g, LDX(BPF_DW, R1, R1, 0));
	cg_addr_of(g, R2, fm);
	cg_emit(g, MOV_IMM(R3, (int32_t)len + 1));
	if (e->nargs) {
		cg_addr_of(g, R4, data);
		cg_emit(g, MOV_IMM(R5, 8 * e->nargs));
	} else {
		cg_emit(g, MOV_IMM(R4, 0));
		cg_emit(g, MOV_IMM(R5, 0));
	}
	cg_call(g, BPF_FUNC_seq_printf);
	g->scratch = saved;
	g->stack = saved_stack;
}
