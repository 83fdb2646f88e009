/* cg_tuple.c - tuples in bpftrace 0.17's layout (base/types.c): their
 * elements stored, copied and read.
 *
 * An element that starts at an 8-byte boundary with its whole slot
 * before the next one (ty_elem_whole) is stored and read as a value of
 * its own, in words as everywhere else.  The others (an int8 beside an
 * int16, a string at byte 3 or ending where an int32 starts) go
 * through a temporary slot and cg_move(), which copies the element's
 * own bytes only; integers are stored and loaded at their width.  A
 * tuple with such elements or padding is zeroed before it is filled,
 * so that equal tuples are equal bytes (map keys). */
#include "bpf/cg_int.h"

bool cg_tuple_plain(const struct type *t)
{
	int off = 0;

	for (int i = 0; i < t->nelem; i++) {
		const struct type *e = t->elem[i];

		if (t->off[i] != off || !ty_elem_whole(t, i) ||
		    (e->kind == TY_INT && e->size != 8) ||
		    (e->kind == TY_TUPLE && !cg_tuple_plain(e)))
			return false;
		off += ty_slot_size(e);
	}
	return off == ty_slot_size(t);
}

/* A temporary slot for a value of type T. */
static struct mem tmp(struct cg *g, const struct type *t, struct node *at)
{
	return cg_tmp_alloc(g, ty_slot_size(t), at);
}

void cg_tuple_elem_store(struct cg *g, struct node *n, struct mem tup,
			 const struct type *t, int i)
{
	struct mem d = { tup.base, tup.off + t->off[i] };
	const struct type *et = t->elem[i];
	int saved = g->scratch, saved_stack = g->stack;
	struct mem m;

	if (et->kind == TY_INT) {	/* the value fits: sema widened et */
		cg_int(g, n);
		cg_emit(g, STX(cg_size_code(et->size), d.base, (int16_t)d.off,
			       R0));
		return;
	}
	if (ty_elem_whole(t, i)) {
		cg_store(g, n, d, et);
		return;
	}
	m = tmp(g, et, n);
	cg_store(g, n, m, et);
	cg_move(g, d, m, et->size);
	g->scratch = saved;
	g->stack = saved_stack;
}

/* The element of record ST that goes to element I of DT: the one of
 * the same name (records stored together may list their fields in
 * another order); I for tuples. */
static int same_field(const struct type *dt, const struct type *st, int i)
{
	int k = dt->names && st->names ? ty_field(st, dt->names[i]) : i;

	return k < 0 ? i : k;
}

void cg_tuple_store(struct cg *g, struct node *n, struct mem dst,
		    const struct type *dt)
{
	if (!cg_tuple_plain(dt))
		cg_zero(g, dst, 0, ty_slot_size(dt));
	/* in source order, each to its field */
	for (int i = 0; i < dt->nelem; i++)
		cg_tuple_elem_store(g, n->args[i], dst, dt,
				    same_field(n->ty, dt, i));
}

/* Element I of ST at SRC into element I of DT at DST (zeroed), each
 * as the other's type. */
static void copy_elem(struct cg *g, struct mem dst, const struct type *dt,
		      struct mem src, const struct type *st, int i)
{
	int k = same_field(dt, st, i);
	struct mem d = { dst.base, dst.off + dt->off[i] };
	struct mem s = { src.base, src.off + st->off[k] };
	const struct type *de = dt->elem[i], *se = st->elem[k];
	int saved = g->scratch, saved_stack = g->stack;

	if (de->kind == TY_INT) {
		cg_emit(g, LDX(cg_size_code(se->size), R1, s.base,
			       (int16_t)s.off));
		cg_norm(g, R1, se);
		cg_emit(g, STX(cg_size_code(de->size), d.base, (int16_t)d.off,
			       R1));
		return;
	}
	if (!ty_elem_whole(st, k)) {
		struct mem m = tmp(g, se, NULL);

		cg_zero(g, m, 0, ty_slot_size(se));
		cg_move(g, m, s, se->size);
		s = m;
	}
	if (ty_elem_whole(dt, i)) {
		cg_copy(g, d, de, s, se);
	} else {
		struct mem m = tmp(g, de, NULL);

		cg_copy(g, m, de, s, se);
		cg_move(g, d, m, de->size);
	}
	g->scratch = saved;
	g->stack = saved_stack;
}

void cg_tuple_copy(struct cg *g, struct mem dst, const struct type *dt,
		   struct mem src, const struct type *st)
{
	if (ty_equal(dt, st)) {		/* the same bytes, padding zero */
		for (int i = 0; i < ty_slot_size(dt); i += 8) {
			cg_emit(g, LDX(BPF_DW, R1, src.base, (int16_t)(src.off + i)));
			cg_emit(g, STX(BPF_DW, dst.base, (int16_t)(dst.off + i), R1));
		}
		return;
	}
	if (!cg_tuple_plain(dt))
		cg_zero(g, dst, 0, ty_slot_size(dt));
	for (int i = 0; i < dt->nelem; i++)
		copy_elem(g, dst, dt, src, st, i);
}

void cg_tuple_elem_int(struct cg *g, struct mem tup, const struct type *t,
		       int i)
{
	const struct type *et = t->elem[i];

	cg_emit(g, LDX(et->kind == TY_INT ? cg_size_code(et->size) : BPF_DW,
		       R0, tup.base, (int16_t)(tup.off + t->off[i])));
	cg_norm(g, R0, et);
}

struct mem cg_tuple_elem_addr(struct cg *g, struct mem tup,
			      const struct type *t, int i, struct node *at)
{
	struct mem e = { tup.base, tup.off + t->off[i] }, m;

	if (ty_elem_whole(t, i))
		return e;
	m = tmp(g, t->elem[i], at);
	cg_zero(g, m, 0, ty_slot_size(t->elem[i]));
	cg_move(g, m, e, t->elem[i]->size);
	return m;
}
