/* sema_dagg.c - D's aggregations (sonde dtrace): the checks DTrace's
 * compiler makes of them, each with its own D tag (D_LQUANT_BASETYPE,
 * D_LLQUANT_FACTORVAL, D_AGG_REDEF, ...) in the words of dtrace's
 * messages, so a script dtrace refuses is refused here the same way.
 * sema.c's agg_assign() calls them where the script is D's; bpftrace
 * scripts never reach this file. */
#include "sema/sema_int.h"

#include <string.h>

/* ARG as an integer constant into *V; false (nothing said) if it is
 * not one. */
static bool const_arg(struct node *arg, int64_t *v)
{
	if (is_err(arg->ty) || !is_int(arg->ty) || !arg->is_const)
		return false;
	*v = arg->cval;
	return true;
}

/* lquantize(value, base, limit[, step]), as dt_cg.c checks it. */
static bool lquantize_args(struct sema *s, struct node *call,
			   struct agg_args *a)
{
	struct node **v = call->args;
	int64_t base, limit, step = 1, levels;

	if (!const_arg(v[1], &base)) {
		DERR(s, v[1]->loc, E_ARGS, "D_LQUANT_BASETYPE",
		     "lquantize( ) argument #1 must be an integer constant");
		return false;
	}
	if (base < INT32_MIN || base > INT32_MAX) {
		DERR(s, v[1]->loc, E_ARGS, "D_LQUANT_BASEVAL",
		     "lquantize( ) argument #1 must be a 32-bit quantity");
		return false;
	}
	if (!const_arg(v[2], &limit)) {
		DERR(s, v[2]->loc, E_ARGS, "D_LQUANT_LIMTYPE",
		     "lquantize( ) argument #2 must be an integer constant");
		return false;
	}
	if (limit < INT32_MIN || limit > INT32_MAX) {
		DERR(s, v[2]->loc, E_ARGS, "D_LQUANT_LIMVAL",
		     "lquantize( ) argument #2 must be a 32-bit quantity");
		return false;
	}
	if (limit <= base) {
		DERR(s, call->loc, E_ARGS, "D_LQUANT_MISMATCH",
		     "lquantize( ) base (argument #1) must be less than limit (argument #2)");
		return false;
	}
	if (call->nargs > 3 && (!const_arg(v[3], &step) || step <= 0)) {
		DERR(s, v[3]->loc, E_ARGS, "D_LQUANT_STEPTYPE",
		     "lquantize( ) argument #3 must be a non-zero positive integer constant");
		return false;
	}
	if (step > UINT16_MAX) {
		DERR(s, v[3]->loc, E_ARGS, "D_LQUANT_STEPVAL",
		     "lquantize( ) argument #3 must be a 16-bit quantity");
		return false;
	}
	levels = (limit - base) / step;
	if (levels == 0) {
		DERR(s, call->loc, E_ARGS, "D_LQUANT_STEPLARGE",
		     "lquantize( ) step (argument #3) too large: must have at least one quantization level");
		return false;
	}
	if (levels > UINT16_MAX) {
		DERR(s, call->loc, E_ARGS, "D_LQUANT_STEPSMALL",
		     "lquantize( ) step (argument #3) too small: number of quantization levels must be a 16-bit quantity");
		return false;
	}
	a->lmin = base;
	a->lmax = limit;
	a->lstep = step;
	return true;
}

/* llquantize()'s integer argument I (1..4 after the value) below 2^16;
 * false when it was reported under DTrace's TYPE or VAL tag. */
static bool llq_arg(struct sema *s, struct node *call, int i,
		    const char *type_tag, const char *val_tag, int64_t *v)
{
	struct node *arg = call->args[i];

	if (!const_arg(arg, v)) {
		DERR(s, arg->loc, E_ARGS, type_tag,
		     "llquantize( ) argument #%d must be an integer constant", i);
		return false;
	}
	if (*v < 0 && i == 4) {	/* dtrace-utils: steps is unsigned */
		DERR(s, arg->loc, E_ARGS, type_tag,
		     "llquantize( ) argument #%d must be a non-negative integer constant", i);
		return false;
	}
	if ((uint64_t)*v > UINT16_MAX) {
		DERR(s, arg->loc, E_ARGS, val_tag,
		     "llquantize( ) argument #%d must be less than 2^16", i);
		return false;
	}
	return true;
}

/* F^E, or 0 past INT64_MAX (where DTrace's llquantize() stops). */
static uint64_t pow_s64(uint64_t f, int64_t e)
{
	uint64_t r = 1;

	while (e-- > 0) {
		if (r > (uint64_t)INT64_MAX / f)
			return 0;
		r *= f;
	}
	return r;
}

/* llquantize(value, factor, low, high, steps), as dt_cg.c checks it,
 * and what out/dtfmt.c's dtf_llquant_init() needs besides: each
 * magnitude from low + 1 (from 1 when low is 0) whole buckets wide. */
static bool llquantize_args(struct sema *s, struct node *call,
			    struct agg_args *a)
{
	int64_t factor, low, high, steps;

	if (!llq_arg(s, call, 1, "D_LLQUANT_FACTORTYPE", "D_LLQUANT_FACTORVAL",
		     &factor))
		return false;
	if (factor < 2) {
		DERR(s, call->args[1]->loc, E_ARGS, "D_LLQUANT_FACTORVAL",
		     "llquantize( ) argument #1 must be two or more and less than 2^16");
		return false;
	}
	if (!llq_arg(s, call, 2, "D_LLQUANT_LMAGTYPE", "D_LLQUANT_LMAGVAL", &low) ||
	    !llq_arg(s, call, 3, "D_LLQUANT_HMAGTYPE", "D_LLQUANT_HMAGVAL", &high) ||
	    !llq_arg(s, call, 4, "D_LLQUANT_STEPTYPE", "D_LLQUANT_STEPVAL", &steps))
		return false;
	if (high < low) {
		DERR(s, call->args[3]->loc, E_ARGS, "D_LLQUANT_HMAGVAL",
		     "llquantize( ) argument #3 (high magnitude) must be at least argument #2 (low magnitude)");
		return false;
	}
	if (steps == 0) {
		DERR(s, call->args[4]->loc, E_ARGS, "D_LLQUANT_STEPTYPE",
		     "llquantize( ) argument #4 (steps) must be a positive integer constant");
		return false;
	}
	if (steps < factor && factor % steps) {
		DERR(s, call->args[4]->loc, E_ARGS, "D_LLQUANT_STEPVAL",
		     "llquantize( ) argument #4 (steps) must evenly divide argument #1 (factor) when steps<factor");
		return false;
	}
	if (steps > factor && steps % factor) {
		DERR(s, call->args[4]->loc, E_ARGS, "D_LLQUANT_STEPVAL",
		     "llquantize( ) argument #4 (steps) must be a multiple of argument #1 (factor) when steps>factor");
		return false;
	}
	if (!pow_s64((uint64_t)factor, high + 1)) {
		DERR(s, call->args[3]->loc, E_ARGS, "D_LLQUANT_HMAGVAL",
		     "llquantize( ) factor (argument #1) raised to power of high magnitude (argument #3) plus 1 overflows 64-bits");
		return false;
	}
	if (steps > factor &&
	    pow_s64((uint64_t)factor, low + 1 + (low == 0)) % (uint64_t)steps) {
		DERR(s, call->args[4]->loc, E_ARGS, "D_LLQUANT_STEPVAL",
		     "llquantize( ) argument #4 (steps) must evenly divide argument #1 (factor) raised to the power of argument #2 (low magnitude) plus one");
		return false;
	}
	a->llq[0] = (int)factor;
	a->llq[1] = (int)low;
	a->llq[2] = (int)high;
	a->llq[3] = (int)steps;
	return true;
}

bool sema_dagg_args(struct sema *s, struct node *call, int f,
		    struct agg_args *a)
{
	int inc = f == F_QUANTIZE ? 1 : f == F_LQUANTIZE ? 4 :
		  f == F_LLQUANTIZE ? 5 : -1;

	if (inc > 0 && call->nargs > inc && !is_int(call->args[inc]->ty)) {
		if (!is_err(call->args[inc]->ty))
			sema_d_proto_arg(s, call, inc, "int64_t");
		return false;
	}
	if (f == F_LQUANTIZE)
		return lquantize_args(s, call, a);
	if (f == F_LLQUANTIZE)
		return llquantize_args(s, call, a);
	return true;
}

/* DTrace's name of an aggregation kind, as its messages print it. */
static const char *d_agg_name(enum agg_kind agg)
{
	switch (agg) {
	case AGG_COUNT: return "count( )";
	case AGG_SUM: return "sum( )";
	case AGG_MIN: return "min( )";
	case AGG_MAX: return "max( )";
	case AGG_AVG: return "avg( )";
	case AGG_STDDEV: return "stddev( )";
	case AGG_QUANT: return "quantize( )";
	case AGG_LHIST: return "lquantize( )";
	case AGG_LLQUANT: return "llquantize( )";
	default: return sema_agg_name(agg);
	}
}

/* One parameter of a second lquantize() or llquantize() of M that must
 * be the first's. */
static bool same(struct sema *s, struct node *call, const char *tag,
		 const char *what, int64_t was, int64_t now)
{
	if (was == now)
		return true;
	DERR(s, call->loc, E_MAP, tag,
	     "%s doesn't match previous declaration: expected %lld, found %lld",
	     what, (long long)was, (long long)now);
	return false;
}

bool sema_dagg_merge(struct sema *s, struct node *call, struct mapinfo *m,
		     enum agg_kind agg, const struct agg_args *a)
{
	if (m->agg != agg) {
		DERR(s, call->loc, E_MAP, "D_AGG_REDEF",
		     "aggregation redefined: %s: current: %s, previous: %s (at %d:%d)",
		     m->name, d_agg_name(agg), d_agg_name(m->agg),
		     m->first.line, m->first.col);
		return false;
	}
	if (agg == AGG_LHIST)
		return same(s, call, "D_LQUANT_MATCHBASE",
			    "lquantize( ) base (argument #1)", m->lh_min, a->lmin) &&
		       same(s, call, "D_LQUANT_MATCHLIM",
			    "lquantize( ) limit (argument #2)", m->lh_max, a->lmax) &&
		       same(s, call, "D_LQUANT_MATCHSTEP",
			    "lquantize( ) step (argument #3)", m->lh_step, a->lstep);
	if (agg == AGG_LLQUANT)
		return same(s, call, "D_LLQUANT_MATCHFACTOR",
			    "llquantize( ) factor (argument #1)", m->llq_factor,
			    a->llq[0]) &&
		       same(s, call, "D_LLQUANT_MATCHLMAG",
			    "llquantize( ) low magnitude (argument #2)",
			    m->llq_low, a->llq[1]) &&
		       same(s, call, "D_LLQUANT_MATCHHMAG",
			    "llquantize( ) high magnitude (argument #3)",
			    m->llq_high, a->llq[2]) &&
		       same(s, call, "D_LLQUANT_MATCHSTEPS",
			    "llquantize( ) steps (argument #4)", m->llq_steps,
			    a->llq[3]);
	return true;
}

bool sema_dagg_value(struct sema *s, struct node *call)
{
	struct type *t = call->args[0]->ty;

	if (is_int(t))
		return true;
	DERR(s, call->args[0]->loc, E_TYPE, "D_AGG_SCALAR",
	     "%s( ) argument #1 must be of scalar type", call->name);
	return false;
}

/* @a = EXPR in D: an aggregation takes only what an aggregating
 * function gives. */
bool sema_dagg_plain(struct sema *s, struct node *n)
{
	struct node *t = n->a;

	if (t->kind != N_MAP || t->name[0] != '@')
		return true;
	/* a function or action that is not an aggregating function is
	 * D_AGG_FUNC, whether sonde offers it (breakpoint()) or not; a
	 * name no D function has is D_FUNC_UNDEF */
	if (n->b->kind != N_CALL || (sema_func_lookup(n->b->name) < 0 &&
				     !sema_d_known_missing(n->b->name))) {
		int before = s->c->diag.nerrors;

		sema_expr(s, n->b);
		if (s->c->diag.nerrors > before)
			return false;
	}
	DERR(s, n->b->loc, E_TYPE, "D_AGG_FUNC",
	     "%s must be assigned the result of an aggregating function",
	     t->name);
	return false;
}

/* D's normalize(@a, n): the values of @a print divided by n from then
 * on; denormalize(@a) as they are. */
struct type *call_normalize(struct sema *s, struct node *n)
{
	struct mapinfo *m;
	struct type *t;

	if (sema_d_aggarg(s, n, 1))
		return n->ty = &ty_void;
	m = sema_map_arg(s, n->args[0], n->name);
	t = n->nargs > 1 ? sema_expr(s, n->args[1]) : NULL;
	if (t && !is_err(t) && !is_int(t))
		sema_d_proto_arg(s, n, 1, "uint64_t");
	if (s->report && m) {
		struct event_spec *e = sema_add_event(s, n, EV_NORMALIZE);

		e->map = m;
		sema_event_args(s, e, n->args + 1, n->nargs - 1);
	}
	return set(n, &ty_void);
}

bool sema_d_agg_known(struct sema *s, const char *name)
{
	struct mapinfo *m = strmap_get(&s->map_names, name);

	return m && m->agg != AGG_NONE;
}

bool sema_d_printa_many(const struct sema *s, const struct node *n)
{
	return s->c->lang_d && n->ival == 1 && n->dname &&
	       !strcmp(n->dname, "printa");
}

/* printa([fmt, ]@a, @b, ...): aggregations with the same key
 * signature, as dtrace checks them (D_PRINTA_AGGARG, D_PRINTA_AGGKEY,
 * D_PRINTA_AGGPROTO); the event names them all. */
struct type *sema_d_printa_join(struct sema *s, struct node *n)
{
	struct mapinfo **maps = arena_alloc(&s->c->arena,
					    sizeof(*maps) * (size_t)n->nargs);
	struct event_spec *e;

	for (int i = 0; i < n->nargs; i++) {
		struct node *a = n->args[i];
		struct mapinfo *m, *m0 = maps[0];

		if (a->kind != N_MAP || a->name[0] != '@' || a->nargs) {
			struct node one = *n;

			one.args = n->args + i;
			one.nargs = 1;
			sema_d_aggarg(s, &one, i + 1 + (n->tyname != NULL));
			return n->ty = &ty_void;
		}
		m = maps[i] = sema_map_arg(s, a, "printa");
		if (!m || !i || !m0 || m->nkeys < 0 || m0->nkeys < 0)
			continue;
		if (m->nkeys != m0->nkeys) {
			DERR(s, a->loc, E_ARGS, "D_PRINTA_AGGKEY",
			     "printa( ): %s and %s do not have matching key signatures: %s has %d key%s, %s has %d key%s",
			     m0->name, m->name, m0->name, m0->nkeys,
			     m0->nkeys == 1 ? "" : "s", m->name, m->nkeys,
			     m->nkeys == 1 ? "" : "s");
			return n->ty = &ty_void;
		}
		for (int k = 0; k < m->nkeys && m->key && m0->key; k++) {
			const struct type *x = m0->nkeys > 1 ? m0->key->elem[k] : m0->key;
			const struct type *y = m->nkeys > 1 ? m->key->elem[k] : m->key;

			if ((x->kind == TY_STR) == (y->kind == TY_STR))
				continue;
			DERR(s, a->loc, E_ARGS, "D_PRINTA_AGGPROTO",
			     "printa( ): %s[ ] key #%d is incompatible with %s:\n"
			     "%9s key #%d: %s\n%9s key #%d: %s", m->name, k + 1,
			     m0->name, m0->name + 1, k + 1, sema_d_type_name(x),
			     m->name + 1, k + 1, sema_d_type_name(y));
			return n->ty = &ty_void;
		}
	}
	if (s->report && maps[0] && n->tyname &&
	    sema_d_printa_format(s, n, maps[0]))
		return n->ty = &ty_void;
	if (s->report) {
		e = sema_add_event(s, n, EV_PRINT_MAP);
		e->map = maps[0];
		e->maps = maps;
		e->nmaps = n->nargs;
		e->size = 24;
		if (n->tyname) {
			e->fmt = n->tyname;
			e->fmt_len = strlen(n->tyname);
		}
	}
	return n->ty = &ty_void;
}
