/* sema.c - names, types and maps of a parsed script.
 *
 * Three passes over the whole program: the first two only learn the
 * types of maps and variables (a map may be read in END before the probe
 * that writes it, a string variable may grow; the second pass takes a
 * map only ever assigned from itself, @x = @x + 1, as an integer), the
 * last checks every node against what they learnt, reports errors, and
 * records events (printf, print, time, exit, ...).  Sema reports many
 * errors before giving up; after it, every node has a type.
 *
 * This file holds the passes and the statements; sema_expr.c types
 * expressions, sema_call.c function calls, sema_ctx.c what a probe's
 * context offers, sema_map.c maps, variables and events.  sema_int.h
 * is what they share.
 */
#include "sema/sema_int.h"

#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"
#include "sema/cdecl.h"

#define LHIST_MAX_BUCKETS 1000

static void stmt(struct sema *s, struct node *n);

/* The aggregation function F keeps. */
static enum agg_kind agg_of(int f)
{
	switch (f) {
	case F_COUNT: return AGG_COUNT;
	case F_SUM: return AGG_SUM;
	case F_AVG: return AGG_AVG;
	case F_MIN: return AGG_MIN;
	case F_MAX: return AGG_MAX;
	case F_STATS: return AGG_STATS;
	case F_HIST: return AGG_HIST;
	case F_TSERIES: return AGG_TSERIES;
	case F_STDDEV: return AGG_STDDEV;
	case F_QUANTIZE: return AGG_QUANT;
	case F_LLQUANTIZE: return AGG_LLQUANT;
	default: return AGG_LHIST;	/* lhist, D's lquantize */
	}
}

/* hist()'s precision and lhist()'s bounds into A. */
static bool hist_args(struct sema *s, struct node *call, int f,
		      struct agg_args *a)
{
	if (f == F_HIST && call->nargs > 1) {
		if (!sema_const_int(s, call->args[1], &a->bits, "hist() precision"))
			return false;
		if (a->bits < 0 || a->bits > 5) {
			ERR(s, call->args[1]->loc, E_ARGS,
			    "hist() precision %lld is not 0 to 5",
			    (long long)a->bits);
			return false;
		}
	}
	if (f != F_LHIST)
		return true;
	if (!sema_const_int(s, call->args[1], &a->lmin, "lhist() min") ||
	    !sema_const_int(s, call->args[2], &a->lmax, "lhist() max") ||
	    !sema_const_int(s, call->args[3], &a->lstep, "lhist() step"))
		return false;
	if (a->lstep <= 0) {
		ERR(s, call->args[3]->loc, E_ARGS, "lhist() step must be positive");
		return false;
	}
	if (a->lmax <= a->lmin) {
		ERR(s, call->args[2]->loc, E_ARGS, "lhist() max must be greater than min");
		return false;
	}
	/* every later max - min (buckets, labels) is int64 */
	if ((uint64_t)a->lmax - (uint64_t)a->lmin > INT64_MAX) {
		ERR(s, call->args[2]->loc, E_LIMIT,
		    "lhist() max - min must be below 2^63");
		return false;
	}
	if ((a->lmax - a->lmin) / a->lstep > LHIST_MAX_BUCKETS) {
		ERR(s, call->loc, E_LIMIT, "lhist() would have more than %d buckets",
		    LHIST_MAX_BUCKETS);
		return false;
	}
	return true;
}

/* The type of the values CALL feeds aggregation AGG; NULL (reported)
 * when it takes no integer. */
static struct type *agg_value(struct sema *s, struct node *call,
			      enum agg_kind agg)
{
	struct type *t = call->args[0]->ty;	/* check_call typed it */

	if (is_err(t))
		return NULL;
	if (s->c->lang_d && !sema_dagg_value(s, call))
		return NULL;
	if (!is_int(t)) {
		ERR(s, call->args[0]->loc, E_TYPE, "%s() needs an integer, not %s",
		    call->name, type_name(t));
		return NULL;
	}
	/* min, max, avg and stats compare and divide as int64 whatever
	 * the argument, as bpftrace 0.17: min(-arg0) of 100 is -100; sum
	 * and the histograms keep the argument's signedness */
	return ty_int(8, agg == AGG_SUM || agg == AGG_HIST ||
		      agg == AGG_LHIST || agg == AGG_QUANT ||
		      agg == AGG_LLQUANT ? t->is_signed : true);
}

/* The first use of M: it keeps AGG of values VT with A's parameters. */
static void agg_first(struct mapinfo *m, enum agg_kind agg, struct type *vt,
		      const struct agg_args *a)
{
	m->agg = agg;
	m->val = vt;
	m->lh_min = a->lmin;
	m->lh_max = a->lmax;
	m->lh_step = a->lstep;
	m->hist_bits = (int)a->bits;
	m->llq_factor = a->llq[0];
	m->llq_low = a->llq[1];
	m->llq_high = a->llq[2];
	m->llq_steps = a->llq[3];
}

/* A later use of M as AGG with A, against the first's. */
static bool agg_again(struct sema *s, struct node *call, struct mapinfo *m,
		      enum agg_kind agg, const struct agg_args *a)
{
	if (s->c->lang_d)
		return sema_dagg_merge(s, call, m, agg, a);
	if (m->agg != agg) {
		ERR(s, call->loc, E_MAP, "%s already holds %s (first used at %d:%d), not %s",
		    m->name, sema_agg_name(m->agg), m->first.line, m->first.col,
		    sema_agg_name(agg));
		return false;
	}
	if (agg == AGG_LHIST && (m->lh_min != a->lmin || m->lh_max != a->lmax ||
				 m->lh_step != a->lstep)) {
		ERR(s, call->loc, E_MAP, "%s is an lhist() with other bounds elsewhere",
		    m->name);
		return false;
	}
	if (agg == AGG_HIST && m->hist_bits != a->bits) {
		ERR(s, call->loc, E_MAP,
		    "%s is a hist() of precision %d elsewhere, not %lld",
		    m->name, m->hist_bits, (long long)a->bits);
		return false;
	}
	return true;
}

/* @m[k] = count() and friends. */
static void agg_assign(struct sema *s, struct node *n)
{
	struct node *target = n->a, *call = n->b;
	struct mapinfo *m;
	enum agg_kind agg;
	struct type *vt = &ty_s64;
	int f = sema_func_lookup(call->name);
	struct agg_args a = { 0, 0, 0, 0, { 0, 0, 0, 0 } };
	struct ts_args ts;

	sema_call(s, call, true);
	if (target->kind != N_MAP) {
		ERR(s, target->loc, E_TYPE, "%s() can only be assigned to a map",
		    call->name);
		return;
	}
	if (n->op != T_ASSIGN) {
		ERR(s, n->loc, E_TYPE, "%s() needs '=', not '%s'", call->name,
		    tok_spelling(n->op));
		return;
	}
	m = sema_map_keys(s, target);
	target->ty = &ty_void;
	if (is_err(call->ty))
		return;
	agg = agg_of(f);
	if (f != F_COUNT && !(vt = agg_value(s, call, agg)))
		return;
	if (!hist_args(s, call, f, &a) || !sema_dagg_args(s, call, f, &a))
		return;
	if (f == F_LQUANTIZE && call->nargs == 3)
		a.lstep = 1;
	if (f == F_TSERIES && !sema_tseries_args(s, call, &ts))
		return;
	m->written = true;
	if (agg == AGG_TSERIES && m->agg == AGG_NONE && !m->val) {
		m->ts_interval = ts.interval;
		m->ts_n = ts.n;
		m->ts_mode = ts.mode;
	} else if (agg == AGG_TSERIES && m->agg == AGG_TSERIES &&
		   (m->ts_interval != ts.interval || m->ts_n != ts.n ||
		    m->ts_mode != ts.mode)) {
		ERR(s, call->loc, E_MAP,
		    "%s is a tseries() of other intervals or aggregation elsewhere",
		    m->name);
		return;
	}
	if (m->agg == AGG_NONE && !m->val) {
		agg_first(m, agg, vt, &a);
		return;
	}
	if (!agg_again(s, call, m, agg, &a))
		return;
	/* Values fed in from several places meet in their common C type
	 * (uint64 wins over int64), which min/max compare and print in. */
	if (m->val)
		m->val = ty_arith(m->val, vt);
}

static bool is_agg_call(struct sema *s, struct node *n)
{
	int f;

	if (n->kind != N_CALL)
		return false;
	f = sema_func_lookup(n->name);
	return sema_is_agg_func(f) && (s->c->lang_d || !sema_func_d_only(f));
}

/* The type of a new integer variable: T's (a uint8 variable stays 1
 * byte, as in bpftrace), still marked as an address of user or kernel
 * memory when it was one (uptr(), kptr()). */
static struct type *int_var_type(struct sema *s, struct type *t)
{
	struct type *p = ty_resize(&s->c->arena, t, t->size, t->is_signed), *u;

	if (!t->user && !t->kernel)
		return p;
	u = arena_alloc(&s->c->arena, sizeof(*u));
	*u = *p;
	u->user = t->user;
	u->kernel = t->kernel;
	return u;
}

/* 0.26: integer variable V assigned T by N takes a type that holds
 * both (sema_unify); a bool holds only bools. */
static void int_var_merge(struct sema *s, struct node *n, struct var *v,
			  struct type *t)
{
	struct type *u = sema_unify(s, v->ty, t);

	if (!u)
		ERR(s, n->loc, E_TYPE, "%s holds %s (from %d:%d); cannot assign %s",
		    v->name, type_name(v->ty), v->first.line, v->first.col,
		    type_name(t));
	else
		v->ty = u;
}

static void assign_to(struct sema *s, struct node *n);

/* Variable TARGET (V, or NULL when new) given a value whose error is
 * reported: defined, so that its uses do not cascade into "used before
 * assigned" errors. */
static void define_failed(struct sema *s, struct node *target, struct var *v)
{
	if (!v)
		v = sema_var_new(s, target, &ty_error);
	else if (v->ty->kind == TY_VOID)	/* let $x; */
		v->ty = &ty_error;
	v->defined = true;
	target->var = v;
}

static void assign(struct sema *s, struct node *n)
{
	s->assigning = n;
	assign_to(s, n);
	s->assigning = NULL;
}

/* Map M is assigned at TARGET: written, and where the text first
 * assigns it (D's names, sema_expr.c). */
static void note_write(struct mapinfo *m, const struct node *target)
{
	if (!m->written || (target->loc.file == m->first_write.file &&
			    target->loc.off < m->first_write.off))
		m->first_write = target->loc;
	m->written = true;
}

/* N assigns to what is no variable, map or member. */
static void not_assignable(struct sema *s, struct node *n)
{
	sema_expr(s, n->a);
	if (s->c->lang_d)	/* D_OP_LVAL, D_OP_WRITE */
		sema_d_not_lvalue(s, n->a, tok_spelling(n->op));
	else
		ERR(s, n->a->loc, E_TYPE, "only variables ($x) and maps (@x) can be assigned");
}

static void assign_to(struct sema *s, struct node *n)
{
	struct node *target = n->a;
	struct type *t, *u;

	if (is_agg_call(s, n->b)) {
		agg_assign(s, n);
		return;
	}
	if (s->c->lang_d && !sema_dagg_plain(s, n))
		return;
	t = sema_expr(s, n->b);
	s->assigning = n;	/* not an assignment inside N->b */
	if (target->kind == N_VAR) {
		struct var *v = sema_var_lookup(s, target);

		if (v)
			v->unset = false;
		if (n->op != T_ASSIGN) {
			struct type *old = sema_expr(s, target);

			if (is_err(old) || is_err(t))
				return;
			if (!is_int(old) || !is_int(t))
				ERR(s, n->loc, E_TYPE, "'%s' needs integers, not %s and %s",
				    tok_spelling(n->op), type_name(old), type_name(t));
			return;
		}
		if (is_err(t)) {
			define_failed(s, target, v);
			return;
		}
		if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
			ERR(s, n->b->loc, E_TYPE, "cannot assign %s to a variable",
			    t->kind == TY_VOID ? "a call without a value" : "a whole map");
			return;
		}
		if (v && sema_typed_assign(s, n, v, t))
			return;
		if (v && v->ty->kind == TY_VOID)	/* let $x; then $x = */
			v->ty = t->kind == TY_INT ? int_var_type(s, t) :
				sema_storage(s, t);
		if (!v) {
			/* An integer variable keeps its C type while every
			 * assignment agrees on it: uint32 $c stays uint32. */
			v = sema_var_new(s, target, t->kind == TY_INT ?
					 int_var_type(s, t) : sema_storage(s, t));
		} else if (v->ty->kind == TY_PTR && is_int(t)) {
			/* a pointer variable stays typed */
		} else if (v->ty->kind == TY_INT && is_int(t)) {
			if (ty_equal(v->ty, t) && v->ty->edef == t->edef)
				;
			else if (!s->c->dialect_017 && t->kind == TY_INT)
				int_var_merge(s, n, v, t);
			else
				v->ty = ty_int(8, v->ty->is_signed);
		} else {
			u = sema_unify(s, v->ty, sema_storage(s, t));
			if (!u)
				ERR(s, n->loc, E_TYPE,
				    "%s holds %s (from %d:%d); cannot assign %s",
				    v->name, type_name(v->ty), v->first.line,
				    v->first.col, type_name(t));
			else
				v->ty = u;
		}
		v->defined = true;
		target->var = v;
		target->ty = v->ty;
		return;
	}
	if (target->kind == N_MAP) {
		struct mapinfo *m = sema_map_keys(s, target);

		note_write(m, target);
		if (n->op != T_ASSIGN)
			m->read = true;
		if (m->agg != AGG_NONE) {
			ERR(s, n->loc, E_MAP, "%s holds %s (first used at %d:%d); cannot assign a value",
			    m->name, sema_agg_name(m->agg), m->first.line, m->first.col);
			return;
		}
		if (target->ty == &ty_error)	/* reported by map_keys */
			return;
		if (s->c->lang_d && sema_d_store_check(s, n, m))
			return;
		if (is_err(t))
			return;
		if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
			ERR(s, n->b->loc, E_TYPE, "cannot store %s in a map",
			    t->kind == TY_VOID ? "a call without a value" : "a whole map");
			return;
		}
		if (n->op != T_ASSIGN && !is_int(t) &&
		    sema_d_op_error(s, n, n->op, 0, m->val && m->dsize != 4 ?
				    m->val : &ty_s32, t))
			return;
		if (n->op != T_ASSIGN && !is_int(t)) {
			ERR(s, n->loc, E_TYPE, "'%s' needs an integer, not %s",
			    tok_spelling(n->op), type_name(t));
			return;
		}
		/* D: trace() of the variable prints with the width of its
		 * own integers (the map keeps 64 bits) */
		if (t->kind == TY_INT && t->size > m->dsize)
			m->dsize = t->size;
		if (!m->val) {
			m->val = sema_storage(s, t);
		} else if (n->op != T_ASSIGN && m->val->kind == TY_PTR) {
			/* @p += n moves the pointer; it stays one */
		} else {
			/* D: a string variable set to NULL holds "" */
			if (s->c->lang_d && m->val->kind == TY_STR && is_int(t) &&
			    n->b->is_const && !n->b->cval && n->op == T_ASSIGN) {
				struct loc at = n->b->loc;

				memset(n->b, 0, sizeof(*n->b));
				n->b->kind = N_STR;
				n->b->name = "";
				n->b->loc = at;
				t = sema_expr(s, n->b);
			}
			/* D: a pointer variable set to 0 holds NULL */
			if (s->c->lang_d && m->val->kind == TY_PTR && is_int(t) &&
			    n->b->is_const && !n->b->cval && n->op == T_ASSIGN)
				t = m->val;
			u = sema_unify(s, m->val, sema_storage(s, t));
			if (!u && s->c->lang_d)
				DERR(s, n->loc, E_MAP, "D_OP_INCOMPAT",
				     "operands have incompatible types: \"%s\" = \"%s\"",
				     m->val->kind == TY_INT && m->dsize == 4 ? "int" :
				     sema_d_type_name(m->val), sema_d_type_name(t));
			else if (!u)
				ERR(s, n->loc, E_MAP,
				    "%s holds %s values (first used at %d:%d), not %s",
				    m->name, type_name(m->val), m->first.line,
				    m->first.col, type_name(t));
			else
				m->val = u;
		}
		target->ty = m->val;
		return;
	}
	if (s->c->lang_d && (sema_d_member_store(s, n, t) ||
			     sema_d_pointer_store(s, n, t)))
		return;
	not_assignable(s, n);
}

static void block(struct sema *s, struct node *b)
{
	struct node *outer = sema_scope_enter(s, b);

	for (int i = 0; i < b->nargs; i++)
		stmt(s, b->args[i]);
	sema_scope_leave(s, outer);
}

void sema_stmt(struct sema *s, struct node *n)
{
	stmt(s, n);
}

/* return EXPR: an integer, the program's return value, which only a
 * test probe reads (not 0: the test failed). */
static void ret_value(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->a);

	if (!is_err(t) && !is_int(t))
		ERR(s, n->a->loc, E_TYPE, "return takes an integer, not %s",
		    type_name(t));
}

static void cond(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n);

	if (!is_err(t) && !is_int(t))
		ERR(s, n->loc, E_TYPE, "condition must be an integer, not %s",
		    type_name(t));
}

/* A clause's predicate: D's must be a scalar (D_PRED_SCALAR). */
static void predicate(struct sema *s, struct node *n)
{
	struct type *t;

	if (!s->c->lang_d) {
		cond(s, n);
		return;
	}
	t = sema_expr(s, n);
	/* checked once the whole clause is read: its '}' line */
	if (s->probe->dend)
		s->c->diag.dline = s->probe->dend;
	if (!is_err(t) && !is_int(t))
		DERR(s, n->loc, E_TYPE, "D_PRED_SCALAR",
		     "predicate result must be of scalar type");
}

/* for ($v : START..END): integer bounds, $v an int64 variable. */
static void for_range(struct sema *s, struct node *n)
{
	struct node *r = n->b, *bound[2] = { r->a, r->b };
	struct var *v;
	bool ok = true;

	for (int i = 0; i < 2; i++) {
		struct type *t = sema_expr(s, bound[i]);

		if (is_err(t)) {
			ok = false;
		} else if (!is_int(t)) {
			ERR(s, bound[i]->loc, E_TYPE,
			    "a range's bounds must be integers, not %s",
			    type_name(t));
			ok = false;
		}
	}
	if (ok && r->a->is_const && r->b->is_const &&
	    r->b->cval > r->a->cval &&
	    (uint64_t)r->b->cval - (uint64_t)r->a->cval > FOR_MAX_ITER)
		ERR(s, r->loc, E_LIMIT,
		    "a for loop runs at most %d times; this range has %llu values",
		    FOR_MAX_ITER,
		    (unsigned long long)((uint64_t)r->b->cval -
					 (uint64_t)r->a->cval));
	sema_loop_var(s, n->a);
	v = sema_var_lookup(s, n->a);
	if (!v) {
		v = sema_var_new(s, n->a, ty_int(8, true));
	} else if (is_int(v->ty) || is_err(v->ty)) {
		if (!is_err(v->ty))
			v->ty = ty_int(8, true);
	} else {
		ERR(s, n->a->loc, E_TYPE,
		    "%s holds %s (from %d:%d); a loop variable is an integer",
		    v->name, type_name(v->ty), v->first.line, v->first.col);
	}
	v->defined = true;
	n->a->var = v;
	n->a->ty = v->ty;
}

/* A condition's value when the compile knows it (a constant, or &&,
 * || and ! of known ones): 1 or 0; -1 when only the run knows. */
static int known_cond(const struct node *n)
{
	int a, b;

	if (n->is_const)
		return n->cval != 0;
	if (n->kind == N_UNOP && n->op == T_BANG)
		return (a = known_cond(n->a)) < 0 ? -1 : !a;
	if (n->kind != N_LAND && n->kind != N_LOR)
		return -1;
	a = known_cond(n->a);
	b = known_cond(n->b);
	if (n->kind == N_LAND)
		return a == 0 || b == 0 ? 0 : a > 0 && b > 0 ? 1 : -1;
	return a > 0 || b > 0 ? 1 : a == 0 && b == 0 ? 0 : -1;
}

static void stmt(struct sema *s, struct node *n)
{
	switch (n->kind) {
	case N_EXPRSTMT: {
		struct type *t;

		if (s->c->lang_d && n->a->kind == N_MAP && n->a->name[0] == '@' &&
		    !n->a->nargs && !sema_d_agg_known(s, n->a->name)) {
			DERR(s, n->a->loc, E_UNDEF, "D_IDENT_UNDEF",
			     "failed to resolve %s: Unknown variable name",
			     n->a->name);
			break;
		}
		if (s->c->lang_d && n->a->kind == N_MAP && n->a->name[0] == '@') {
			DERR(s, n->a->loc, E_SYNTAX, "D_AGG_NULL",
			     "expression has null effect: %s is given no aggregating function",
			     n->a->name);
			break;
		}
		t = sema_expr(s, n->a);

		(void)t;
		/* 0.26: a failed delete() whose value is dropped warns
		 * (D's frees, self->x = 0, never do) */
		if (n->a->kind == N_CALL && n->a->builtin == F_DELETE &&
		    !s->c->dialect_017 && !s->c->lang_d)
			n->a->op = DELETE_UNUSED;
		if (n->a->kind == N_MAP && !n->a->nargs)
			ERR(s, n->a->loc, E_SYNTAX, "a map alone is not a statement");
		break;
	}
	case N_ASSIGN:
		assign(s, n);
		break;
	case N_IF: {
		int k;
		bool known, yes;

		cond(s, n->a);
		k = known_cond(n->a);
		known = k >= 0;
		yes = k > 0;
		s->dead += known && !yes;
		block(s, n->b);
		s->dead -= known && !yes;
		s->dead += known && yes;
		if (n->c)
			block(s, n->c);
		s->dead -= known && yes;
		break;
	}
	case N_WHILE:
		cond(s, n->a);
		block(s, n->b);
		break;
	case N_FOR: {
		struct node *outer = sema_scope_enter(s, n);

		if (n->b->kind == N_MAP) {
			struct var *prev = sema_for_map(s, n);

			block(s, n->c);
			sema_for_map_end(s, n, prev);
		} else {
			for_range(s, n);
			block(s, n->c);
		}
		sema_scope_leave(s, outer);
		break;
	}
	case N_LET:
		sema_let(s, n);
		break;
	case N_UNROLL: {
		int64_t k;

		if (sema_const_int(s, n->a, &k, "unroll count") &&
		    (k < 1 || k > 100)) {
			ERR(s, n->a->loc, E_LIMIT, k < 1 ?
			    "unroll minimum value is 1 (the count must be in 1..100)" :
			    "unroll maximum value is 100 (the count must be in 1..100)");
			n->a->cval = 1;
		}
		block(s, n->b);
		break;
	}
	case N_BLOCK:
		block(s, n);
		break;
	case N_RETURN:
		if (n->a)
			ret_value(s, n);
		break;
	case N_BREAK: case N_CONTINUE:
		break;
	default:
		sema_expr(s, n);
	}
}

static void finalize_maps(struct compiler *c)
{
	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];

		if (m->nkeys < 0)
			m->nkeys = 0;
		/* a keyless map has one zero key, a keyless hist only
		 * its bucket index (below) */
		m->key_size = m->key ? ty_slot_size(m->key) :
			      agg_bucketed(m->agg) ? 0 : 8;
		/* A keyless map holds one entry, a keyless histogram one per
		 * bucket: the kernel preallocates every entry of a hash map
		 * (per CPU, for aggregations), which took 1.4 ms of a hist
		 * script's start with 4096. */
		if (m->key)
			m->max_entries = c->map_keys_max;
		else if (m->agg == AGG_HIST || m->agg == AGG_LHIST)
			m->max_entries = hist_sum_slot(m) + c->hist_sums <
					 c->map_keys_max ?
					 hist_sum_slot(m) + c->hist_sums :
					 c->map_keys_max;
		else if (m->agg == AGG_QUANT)
			m->max_entries = DQUANT_NBUCKETS;
		else if (m->agg == AGG_LLQUANT)
			m->max_entries = llq_nbuckets(m);
		else
			m->max_entries = 1;
		switch (m->agg) {
		case AGG_NONE:
			m->value_size = m->val ? ty_slot_size(m->val) : 8;
			m->bpf_type = BPF_MAP_TYPE_HASH;
			break;
		case AGG_COUNT: case AGG_SUM:
			m->value_size = 8;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		case AGG_TSERIES:
			m->value_size = TS_BUCKET * m->ts_n;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		case AGG_HIST: case AGG_LHIST: case AGG_QUANT: case AGG_LLQUANT:
			m->key_size += 8;	/* bucket index */
			m->value_size = 8;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		case AGG_STDDEV:	/* {count, sum, squares low, high} */
			m->value_size = 32;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
			break;
		default:	/* min max: {value, set}; avg stats: {count, total} */
			m->value_size = 16;
			m->bpf_type = BPF_MAP_TYPE_PERCPU_HASH;
		}
		sema_decl_layout(m);
	}
}

int sema_stack_map(struct compiler *c, int depth)
{
	for (int i = 0; i < c->nstack_maps; i++)
		if (c->stack_depths[i] == depth)
			return i;
	if (!c->stack_depths) {
		c->stack_depths = arena_alloc(&c->arena, sizeof(int) *
					      KSTACK_MAX_DEPTH);
		c->stack_needs = arena_alloc(&c->arena, KSTACK_MAX_DEPTH);
	}
	c->stack_depths[c->nstack_maps] = depth;
	return c->nstack_maps++;
}

/* The blocks whose wildcards all matched nothing: warnings, the blocks
 * skipped, when others attach; errors when nothing would. */
static void skipped_blocks(struct compiler *c)
{
	int all = 0;

	for (struct node *p = c->ast->probes; p; p = p->next)
		all += ((struct probe_info *)p->extra)->nspecs;
	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;

		for (int i = 0; pi->missing && i < p->nargs; i++) {
			if (!pi->missing[i])
				continue;
			if (all)
				diag_warn(&c->diag, p->args[i]->loc,
					  "%s; the block is skipped",
					  pi->missing[i]);
			else
				diag_error(&c->diag, p->args[i]->loc, E_PROBE,
					   "No probes to attach: %s",
					   pi->missing[i]);
		}
	}
}

/* --probe-filter left no probe but BEGIN and END: an error, as in
 * bpftrace. */
static void filtered_all(struct compiler *c)
{
	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;

		for (int i = 0; i < pi->nspecs; i++)
			if (pi->specs[i].ops->stage != STAGE_BEGIN &&
			    pi->specs[i].ops->stage != STAGE_END)
				return;
	}
	for (struct node *p = c->ast->probes; p; p = p->next)
		if (!((struct probe_info *)p->extra)->nspecs) {
			diag_error(&c->diag, p->args[0]->loc, E_PROBE,
				   "--probe-filter matches no probe of the script");
			return;
		}
}

/* --test or --bench with none of their probes, or a trace of a script
 * of nothing but test or bench probes: nothing would run. */
static void mode_probes(struct compiler *c)
{
	static const char *const flag[] = { "", "--test", "--bench" };
	static const enum probe_stage stage[] = { STAGE_ATTACH, STAGE_TEST,
						  STAGE_BENCH };
	struct node *ignored = NULL;
	int total = 0, ours = 0;

	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = p->extra;

		total += pi->nspecs;
		for (int i = 0; i < pi->nspecs; i++)
			ours += pi->specs[i].ops->stage == stage[c->run_mode];
		if (!pi->nspecs && !pi->missing && !ignored)
			ignored = p;
	}
	if (c->run_mode != RUN_TRACE && !ours && c->ast->probes)
		diag_error(&c->diag, c->ast->probes->loc, E_PROBE,
			   "%s: the script has no %s probes", flag[c->run_mode],
			   c->run_mode == RUN_TEST ? "test" : "bench");
	else if (c->run_mode == RUN_TRACE && !total && ignored)
		diag_error(&c->diag, ignored->args[0]->loc, E_PROBE,
			   "No probes to attach: test probes run with --test, bench probes with --bench");
}

/* Are all the attach points of block P wildcards? */
/* An attach point of a list that bpftrace skips, with a warning, when
 * it names nothing here: a wildcard, a tracepoint. */
static bool list_skips(const char *text)
{
	const struct probe_ops *o = probe_ops_named(text, strcspn(text, ":"));

	return probe_wild(text) ||
	       (o && (o->ctx == CTX_RECORD || o->ctx == CTX_RAWTP));
}

static bool all_wild(const struct node *p)
{
	for (int i = 0; i < p->nargs; i++)
		if (!probe_wild(p->args[i]->name))
			return false;
	return true;
}

int sema_check(struct compiler *c)
{
	struct sema s;
	int errors_before = c->diag.nerrors;

	memset(&s, 0, sizeof(s));
	s.c = c;
	/* 0.26's blocks scope variables; D's this-> are the clause's */
	s.scoped = !c->dialect_017 && !c->lang_d;
	if (cdecl_define(c))
		return -1;
	sema_decl_read(&s);
	/* Probe specs first: `probe` needs the longest name. */
	for (struct node *p = c->ast->probes; p; p = p->next) {
		struct probe_info *pi = arena_alloc(&c->arena, sizeof(*pi));
		int total = 0;
		struct probe_spec **lists;
		int *counts;

		p->extra = pi;
		lists = arena_alloc(&c->arena, sizeof(*lists) * (size_t)p->nargs);
		counts = arena_alloc(&c->arena, sizeof(*counts) * (size_t)p->nargs);
		const char **missing = arena_alloc(&c->arena, sizeof(*missing) *
						   (size_t)p->nargs);

		for (int i = 0; i < p->nargs; i++) {
			if (probe_expand(c, p->args[i], &lists[i], &counts[i],
					 &missing[i]))
				counts[i] = 0;
			total += counts[i];
		}
		/* Of several attach points, one that names nothing (a
		 * function a library lacks; a wildcard that matches nothing
		 * is only said) is an error in bpftrace 0.26 and D, unless
		 * missing_probes (D's -Z) says warn (a warning, 0.17's way)
		 * or ignore; the block needs one that
		 * attaches, unless all its attach points are wildcards,
		 * which may match nothing here (kprobe:vfs_* on a kernel
		 * without kprobes): then the block is checked but attaches
		 * nothing. */
		if (!total && all_wild(p))
			pi->missing = missing;	/* said below */
		for (int i = 0; i < p->nargs && !pi->missing; i++) {
			int mode = c->missing_probes >= 0 ? c->missing_probes :
				   c->dialect_017 && !c->lang_d ? 1 : 0;

			/* a wildcard that matches nothing here names no probe
			 * that is missing, nor does a tracepoint this kernel
			 * lacks (bpftrace's tracepoint_multiattach_missing):
			 * said, skipped (not in D, where a description that
			 * matches nothing is an error) */
			if (total && !c->lang_d && mode == 0 &&
			    list_skips(p->args[i]->name))
				mode = 1;

			if (!missing[i] || (total && mode == 2))
				continue;
			if (total && mode == 1)
				diag_warn(&c->diag, p->args[i]->loc,
					  "%s; skipped", missing[i]);
			else if (c->lang_d && p->args[i]->tyname)
				diag_error(&c->diag, p->args[i]->loc, E_PROBE,
					   "probe description %s does not match any probes",
					   p->args[i]->tyname);
			else
				diag_error(&c->diag, p->args[i]->loc, E_PROBE,
					   "%s", missing[i]);
		}
		pi->specs = arena_alloc(&c->arena, sizeof(*pi->specs) *
					(size_t)(total ? total : 1));
		for (int i = 0; i < p->nargs; i++)
			for (int j = 0; j < counts[i]; j++) {
				pi->specs[pi->nspecs] = lists[i][j];
				pi->specs[pi->nspecs++].ddesc = p->args[i]->tyname;
			}
		pi->name_max = 1;
		for (int i = 0; i < pi->nspecs; i++) {
			int len = (int)strlen(pi->specs[i].name) + 1;

			if (len > pi->name_max)
				pi->name_max = len;
		}
	}
	skipped_blocks(c);
	if (c->probe_filter)
		filtered_all(c);
	if (c->diag.nerrors == errors_before)
		mode_probes(c);
	if (c->diag.nerrors > errors_before)
		return -1;
	/* passes: 0 learn, 1 learn guessing unknown maps are integers,
	 * 2 check and report */
	for (int pass = 0; pass < 3; pass++) {
		s.report = pass == 2;
		s.guess_int = pass == 1;
		for (struct node *p = c->ast->probes; p; p = p->next) {
			s.probe = p;
			s.pi = p->extra;
			for (struct var *v = s.pi->vars; v; v = v->next)
				v->defined = false;
			sema_scope_reset(&s);
			/* dtrace checks a predicate when its clause's '{'
			 * is read: -x errtags names that line */
			if (p->a && c->lang_d && p->b)
				c->diag.dline = p->b->loc.line;
			if (p->a)
				predicate(&s, p->a);
			c->diag.dline = 0;
			block(&s, p->b);
			if (p->c)	/* D: the ERROR clauses (dlower.c) */
				block(&s, p->c);
			sema_never_set(&s);
		}
		if (c->diag.nerrors > errors_before) {
			if (c->diag.nerrors - errors_before > MAX_ERRORS &&
			    !c->lang_d)	/* D's one error only */
				fprintf(c->diag.out, "%s: %d more errors not shown\n",
					c->diag.file,
					c->diag.nerrors - errors_before - MAX_ERRORS);
			return -1;
		}
	}
	sema_decl_check(&s);
	if (c->diag.nerrors > errors_before || sema_named_unused(c))
		return -1;
	finalize_maps(c);
	return 0;
}
