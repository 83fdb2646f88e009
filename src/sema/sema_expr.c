/* sema_expr.c - the type of each expression, one function per node
 * kind, dispatched from a table indexed by enum node_kind (ast.def);
 * integer constants are folded on the way, so that lhist(), unroll()
 * and shifts can see them. */
#include "sema/sema_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/btf.h"
#include "lang/lex.h"
#include "sema/cdecl.h"

/* D's arithmetic on integers of types A and B: no promotion to int
 * (an unsigned char plus a signed char is an unsigned char, as
 * dtrace's dt_type_promote() makes it); the wider type, or of two as
 * wide, the unsigned one. */
static struct type *d_arith(const struct type *a, const struct type *b)
{
	int sa = a->kind == TY_PTR ? 8 : a->size, sb = b->kind == TY_PTR ? 8 : b->size;
	bool ua = a->kind == TY_PTR || !a->is_signed;
	bool ub = b->kind == TY_PTR || !b->is_signed;

	if (sa == sb)
		return ty_int(sa, !ua && !ub);
	return sa > sb ? ty_int(sa, !ua) : ty_int(sb, !ub);
}

/* P as an integer: 0 when it is not one, 1 an int64, 2 a uint64
 * above INT64_MAX (0xffffffffffffffff). */
static int positional_int(const char *p, int64_t *v)
{
	char *end;

	if (!*p)
		return 0;
	errno = 0;
	*v = strtoll(p, &end, 0);
	if (!errno && !*end)
		return 1;
	if (errno == ERANGE && !*end && !strchr(p, '-')) {
		errno = 0;
		*v = (int64_t)strtoull(p, &end, 0);
		return !errno && !*end ? 2 : 0;
	}
	return 0;
}

/* The pointer type of P + N (N + P when COMMUTES), or NULL when neither
 * side is a pointer to something of a known size. */
static struct type *ptr_arith(struct type *a, struct type *b, bool commutes)
{
	if (a->kind == TY_PTR && a->pointee && a->pointee->size &&
	    b->kind == TY_INT)
		return a;
	if (commutes && b->kind == TY_PTR && b->pointee && b->pointee->size &&
	    a->kind == TY_INT)
		return b;
	return NULL;
}

static struct type *binop(struct sema *s, struct node *n)
{
	struct type *a = sema_expr(s, n->a), *b = sema_expr(s, n->b), *t;

	if (is_err(a) || is_err(b))
		return set(n, &ty_error);
	/* D: a string compared with NULL is compared with "" (sonde's
	 * strings are values, and strtok()'s end is ""); with another
	 * constant, which no string's address is, it differs */
	if (s->c->lang_d && (n->op == T_EQ || n->op == T_NE) &&
	    ((a->kind == TY_STR && is_int(b) && n->b->is_const) ||
	     (b->kind == TY_STR && is_int(a) && n->a->is_const))) {
		struct node *z = a->kind == TY_STR ? n->b : n->a;
		struct node *str = z == n->b ? n->a : n->b;
		bool null = !z->cval;
		struct loc at = z->loc, sat = str->loc;

		memset(z, 0, sizeof(*z));
		z->loc = at;
		z->kind = null ? N_STR : N_INT;
		z->name = null ? "" : NULL;
		z->ival = 1;
		if (!null) {	/* 0 == 1, 0 != 1 */
			memset(str, 0, sizeof(*str));
			str->loc = sat;
			str->kind = N_INT;
		}
		a = sema_expr(s, n->a);
		b = sema_expr(s, n->b);
	}
	if (n->op == T_EQ || n->op == T_NE) {
		/* buffers: the same length and bytes, whatever their
		 * sizes (as bpftrace 0.17 compares them) */
		if ((a->kind == TY_STR && b->kind == TY_STR) ||
		    (a->kind == TY_BUF && b->kind == TY_BUF))
			return set(n, sema_bool_type(s));
	}
	/* D orders strings as strcmp() does */
	if (s->c->lang_d && a->kind == TY_STR && b->kind == TY_STR &&
	    (n->op == T_LT || n->op == T_LE || n->op == T_GT ||
	     n->op == T_GE))
		return set(n, sema_bool_type(s));
	if (n->op == T_EQ || n->op == T_NE) {
		/* the same stack (same id), the same address, the same
		 * user */
		if ((a->kind == TY_KSTACK || a->kind == TY_KSYM ||
		     a->kind == TY_USERNAME || a->kind == TY_STRERROR) &&
		    ty_equal(a, b))
			return set(n, sema_bool_type(s));
		/* arrays of one type: all their elements */
		if (a->kind == TY_ARRAY && ty_equal(a, b))
			return set(n, sema_bool_type(s));
		/* tuples and records (0.26): element by element, both as
		 * the type they fit in (cg compares their bytes) */
		if (a->kind == TY_TUPLE && b->kind == TY_TUPLE &&
		    (n->extra = sema_unify(s, sema_storage(s, a),
					   sema_storage(s, b))))
			return set(n, sema_bool_type(s));
	}
	/* p + n, n + p, p - n: a pointer moved by n of what it points to,
	 * as in C */
	if (n->op == T_PLUS || n->op == T_MINUS) {
		struct type *pt = ptr_arith(a, b, n->op == T_PLUS);

		if (pt)
			return set(n, pt);
		if (s->c->lang_d && sema_d_ptr_arith(s, n, a, b))
			return n->ty;
	}
	if (!is_int(a) || !is_int(b)) {
		if (!sema_d_op_error(s, n, n->op, 0, a, b))
			ERR(s, n->loc, E_TYPE, "operator '%s' cannot take %s and %s",
			    tok_spelling(n->op), type_name(a), type_name(b));
		return set(n, &ty_error);
	}
	switch (n->op) {
	case T_EQ: case T_NE: case T_LT: case T_GT: case T_LE: case T_GE:
		t = sema_bool_type(s);
		break;
	case T_SHL: case T_SHR:
		t = ty_promote(a);
		/* D: a shift by a negative count or 64 and more is 0,
		 * as x * 0 */
		if (s->c->lang_d && n->b->is_const &&
		    (n->b->cval < 0 || n->b->cval >= 64)) {
			struct loc at = n->b->loc;

			memset(n->b, 0, sizeof(*n->b));
			n->b->kind = N_INT;
			n->b->loc = at;
			n->op = T_STAR;
			b = sema_expr(s, n->b);
			t = ty_arith(a, b);
			break;
		}
		if (n->b->is_const && (n->b->cval < 0 || n->b->cval >= 64)) {
			ERR(s, n->b->loc, E_TYPE, "shift count %lld is not in 0..63",
			    (long long)n->b->cval);
			return set(n, &ty_error);
		}
		break;
	default:
		if (s->c->lang_d) {
			t = d_arith(a, b);
			break;
		}
		t = ty_arith(a, b);
		/* 0.26: a difference is signed, (uint64)1 - 2 is -1, and
		 * so is what mixes signs ((uint64)1 + (-2)), a
		 * non-negative literal aside */
		if (!s->c->dialect_017 && a->kind == TY_INT &&
		    b->kind == TY_INT && (n->op == T_MINUS ||
		    (a->is_signed != b->is_signed && !a->literal &&
		     !b->literal)))
			t = ty_int(t->size, true);
	}
	return set(n, t);
}

/* V, converted to integer type T (truncated, then extended). */
static int64_t trunc_to(int64_t v, const struct type *t)
{
	int sh;

	if (t->kind != TY_INT || t->size >= 8)
		return v;
	sh = 64 - t->size * 8;
	return t->is_signed ? (int64_t)((uint64_t)v << sh) >> sh
			    : (int64_t)(((uint64_t)v << sh) >> sh);
}

/* Fold integer constants so that lhist(), unroll() and shifts can see
 * them; cg still emits the general code path for non-constants. */
static void fold(struct node *n, bool d)
{
	int64_t a, b, r;
	uint64_t ua, ub;
	bool sgn;

	if (n->kind == N_UNOP && n->a->is_const && n->ty->kind == TY_INT) {
		a = n->a->cval;
		switch (n->op) {
		case T_MINUS: r = (int64_t)(0 - (uint64_t)a); break;
		case T_PLUS: r = a; break;
		case T_TILDE: r = ~a; break;
		case T_BANG: r = !a; break;
		default: return;
		}
		n->cval = trunc_to(r, n->ty);
		n->is_const = 1;
		return;
	}
	if (n->kind != N_BINOP || !n->a->is_const || !n->b->is_const ||
	    n->ty->kind != TY_INT)
		return;
	/* Operands convert to their common type first, as in C:
	 * (uint32)x == (int32)-7 compares 32-bit unsigned values. */
	{
		struct type *ct = (n->op == T_SHL || n->op == T_SHR) ? n->ty :
				  ty_arith(n->a->ty, n->b->ty);

		a = trunc_to(n->a->cval, ct);
		b = (n->op == T_SHL || n->op == T_SHR) ? n->b->cval
						       : trunc_to(n->b->cval, ct);
	}
	ua = (uint64_t)a;
	ub = (uint64_t)b;
	sgn = n->ty->is_signed;
	switch (n->op) {
	case T_PLUS: r = (int64_t)(ua + ub); break;
	case T_MINUS: r = (int64_t)(ua - ub); break;
	case T_STAR: r = (int64_t)(ua * ub); break;
	case T_SLASH:
		if (!b)
			r = 0;
		else if (sgn)
			r = (a == INT64_MIN && b == -1) ? a : a / b;
		else
			r = (int64_t)(ua / ub);
		break;
	case T_PERCENT:
		if (!b)
			r = 0;
		else if (sgn)
			r = (b == -1) ? 0 : a % b;
		else
			r = (int64_t)(ua % ub);
		/* D's remainder takes the quotient's sign, as bpf/ emits */
		if (sgn && b && d && r && ((a < 0) == (b < 0)) != (r > 0))
			r = -r;
		break;
	case T_AMP: r = a & b; break;
	case T_PIPE: r = a | b; break;
	case T_CARET: r = a ^ b; break;
	case T_SHL: r = (int64_t)(ua << (ub & 63)); break;
	case T_SHR: r = sgn ? a >> (ub & 63) : (int64_t)(ua >> (ub & 63)); break;
	case T_EQ: r = a == b; break;
	case T_NE: r = a != b; break;
	case T_LT: r = sgn ? a < b : ua < ub; break;
	case T_GT: r = sgn ? a > b : ua > ub; break;
	case T_LE: r = sgn ? a <= b : ua <= ub; break;
	case T_GE: r = sgn ? a >= b : ua >= ub; break;
	default: return;
	}
	/* The operands' common type decides how comparisons read them. */
	if (n->op >= T_LT && n->op <= T_NE) {
		struct type *ct = ty_arith(n->a->ty, n->b->ty);

		if (!ct->is_signed) {
			switch (n->op) {
			case T_LT: r = ua < ub; break;
			case T_GT: r = ua > ub; break;
			case T_LE: r = ua <= ub; break;
			case T_GE: r = ua >= ub; break;
			default: break;
			}
		} else {
			switch (n->op) {
			case T_LT: r = a < b; break;
			case T_GT: r = a > b; break;
			case T_LE: r = a <= b; break;
			case T_GE: r = a >= b; break;
			default: break;
			}
		}
	}
	/* Truncate to the result type. */
	if (n->ty->size < 8) {
		int sh = 64 - n->ty->size * 8;

		r = sgn ? (int64_t)((uint64_t)r << sh) >> sh
			: (int64_t)(((uint64_t)r << sh) >> sh);
	}
	n->cval = r;
	n->is_const = 1;
}

static struct type *e_int(struct sema *s, struct node *n)
{
	n->is_const = 1;
	n->cval = (int64_t)n->ival;
	if (n->ival > INT64_MAX)
		return set(n, &ty_u64);
	/* D, as C: a constant that fits an int is an int, unless its
	 * suffix says long or unsigned */
	if (s->c->lang_d && (n->len & 1))
		return set(n, (n->len & 2) ? &ty_u64 : &ty_s64);
	if (s->c->lang_d && (n->len & 2))
		return set(n, n->ival <= UINT32_MAX ? &ty_u32 : &ty_u64);
	if (s->c->lang_d)
		return set(n, n->ival <= INT32_MAX ? &ty_s32 : &ty_s64);
	/* 0.26: stored beside unsigned values, it takes their sign */
	return set(n, s->c->dialect_017 ? &ty_s64 : &ty_lit);
}

static struct type *e_str(struct sema *s, struct node *n)
{
	return set(n, str_type(s, (int)n->len + 1));
}

/* $N: an integer constant when the parameter reads as one (or is
 * missing: 0, or "" in str(), as in bpftrace), else a string. */
static struct type *e_positional(struct sema *s, struct node *n)
{
	int64_t v = 0;
	const char *p;
	int k = 0;

	if (n->ival == 0) {
		ERR(s, n->loc, E_POSITIONAL,
		    "$0 does not exist: parameters start at $1");
		return set(n, &ty_error);
	}
	/* D: a macro argument not given was said by lang/dlower.c */
	p = (int)n->ival > s->c->nparams ? "" : s->c->params[n->ival - 1];
	if (!n->extra && (!*p || (k = positional_int(p, &v)))) {
		n->is_const = 1;
		n->cval = *p ? v : 0;
		return set(n, k == 2 ? &ty_u64 : &ty_s64);
	}
	n->name = p;
	n->len = strlen(p);
	/* Longer than BPFTRACE_STRLEN: cut, as bpftrace does. */
	if (n->len + 1 > (size_t)s->c->strlen_)
		n->len = (size_t)s->c->strlen_ - 1;
	return set(n, str_type(s, (int)n->len + 1));
}

static struct type *e_nargs(struct sema *s, struct node *n)
{
	n->is_const = 1;
	n->cval = s->c->nparams;
	return set(n, &ty_s64);
}

static struct type *e_var(struct sema *s, struct node *n)
{
	struct var *v = sema_var_find(s, n->name);

	n->var = v;
	if (!v && s->scoped) {
		sema_undeclared(s, n);
		return set(n, &ty_error);
	}
	/* D's clause-locals hold 0 until stored (the program zeroes its
	 * variables): reading one first is no error */
	if (s->c->lang_d && !strncmp(n->name, "$this->", 7) &&
	    (!v || !v->defined)) {
		if (!v)
			v = n->var = sema_var_new(s, n, &ty_s64);
		v->defined = true;
	}
	if (!v || !v->defined) {
		ERR(s, n->loc, E_UNDEF,
		    "variable %s is used before it is assigned", n->name);
		return set(n, &ty_error);
	}
	if (v->ty->kind == TY_VOID) {	/* let $x; never assigned */
		if (s->report)
			ERR(s, n->loc, E_TYPE,
			    "the type of %s is unknown: declare it with one (let %s: int64) or assign it",
			    n->name, n->name);
		return set(n, &ty_error);
	}
	if (v->unset && s->report) {	/* said once */
		diag_warn(&s->c->diag, n->loc,
			  "variable %s is used before it is assigned (it holds zero)",
			  n->name);
		v->unset = false;
	}
	return set(n, v->ty);
}

/* D: is global variable M (x, an array a[k]) read at N before the
 * text assigns it?  dtrace resolves names as it reads the program: a
 * variable no earlier clause assigned or declared is unknown. */
static bool d_read_early(struct sema *s, const struct mapinfo *m,
			 const struct node *n)
{
	const char *name = m->name;

	if (!s->c->lang_d || !s->report || !m->written || m->agg != AGG_NONE ||
	    !(isalpha((unsigned char)*name) || *name == '_') ||
	    strstr(name, "->") || ast_dvar(s->c->ast, name))
		return false;
	return n->loc.file == m->first_write.file &&
	       n->loc.off < m->first_write.off;
}

static struct type *e_map(struct sema *s, struct node *n)
{
	struct mapinfo *m = sema_map_keys(s, n);

	m->read = true;
	if (n->ty == &ty_error)	/* wrong number of keys, reported */
		return n->ty;
	/* D: an element only ever assigned 0 (freed) reads as the 0 it
	 * was given */
	if (s->c->lang_d && !m->val && m->d_freed)
		m->val = &ty_s64;
	if (d_read_early(s, m, n)) {
		ERR(s, n->loc, E_UNDEF,
		    "failed to resolve %s: Unknown variable name", m->name);
		return set(n, &ty_error);
	}
	if (m->agg != AGG_NONE && sema_agg_readable(s, m))
		return set(n, sema_agg_value(m));
	if (m->agg != AGG_NONE && !s->c->dialect_017) {
		ERR(s, n->loc, E_TYPE,
		    "%s holds %s: a probe can read the value of count(), sum(), min(), max() and avg(), not of %s",
		    m->name, sema_agg_name(m->agg), sema_agg_name(m->agg));
		return set(n, &ty_error);
	}
	if (m->agg != AGG_NONE) {
		ERR(s, n->loc, E_TYPE,
		    "%s holds %s: its value is merged across CPUs in user space and cannot be read in a probe",
		    m->name, sema_agg_name(m->agg));
		return set(n, &ty_error);
	}
	if (!m->val) {
		/* A map only ever assigned from itself (@x = @x + 1) is an
		 * integer: the second learning pass assumes so. */
		if (s->guess_int)
			return set(n, &ty_s64);
		/* D: a variable declared with an integer type and never
		 * assigned reads as 0 */
		if (s->c->lang_d && ast_dvar(s->c->ast, m->name) &&
		    (ast_dvar(s->c->ast, m->name)->ival & DV_INT))
			m->val = &ty_s64;
		if (m->val)
			return set(n, m->val);
		if (s->report && s->c->lang_d)
			ERR(s, n->loc, E_UNDEF,
			    "failed to resolve %s: Unknown variable name", m->name);
		else if (s->report)
			ERR(s, n->loc, E_UNDEF, "%s is read but never assigned",
			    m->name);
		return set(n, &ty_error);
	}
	/* D: a variable given only narrower integers reads as the widest
	 * of them (an int stays an int: ~x of 0xffff is 0xffff0000) */
	if (s->c->lang_d && m->val->kind == TY_INT && m->val->size == 8 &&
	    (m->dsize == 1 || m->dsize == 2 || m->dsize == 4) &&
	    !m->val->boolean)
		return set(n, ty_resize(&s->c->arena, m->val, m->dsize,
					m->val->is_signed));
	return set(n, m->val);
}

static struct type *e_call(struct sema *s, struct node *n)
{
	return sema_call(s, n, false);
}

static struct type *e_binop(struct sema *s, struct node *n)
{
	struct type *t = binop(s, n);

	/* D refuses a constant division by zero (bpftrace makes it 0) */
	if (s->c->lang_d && (n->op == T_SLASH || n->op == T_PERCENT) &&
	    n->b->is_const && n->b->cval == 0 && !is_err(t))
		DERR(s, n->loc, E_TYPE, "D_DIV_ZERO",
		     "expression contains division by zero");
	fold(n, s->c->lang_d);
	/* 2 + 3 is as flexible a literal as 5 (0.26) */
	if (n->is_const && n->cval >= 0 && t->kind == TY_INT &&
	    !t->boolean && n->a->ty->literal && n->b->ty->literal)
		return set(n, &ty_lit);
	return t;
}

static struct type *e_unop(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->a);

	if (is_err(t))
		return set(n, &ty_error);
	if (n->op == T_STAR && s->c->lang_d && t->kind != TY_PTR) {
		DERR(s, n->loc, E_TYPE, "D_DEREF_NONPTR",
		     "cannot dereference non-pointer type");
		return set(n, &ty_error);
	}
	if (n->op == T_STAR && s->c->lang_d && !t->pointee) {
		DERR(s, n->loc, E_TYPE, "D_DEREF_VOID",
		     "cannot dereference pointer to void");
		return set(n, &ty_error);
	}
	if (n->op == T_STAR)
		return sema_deref(s, n, t);
	if (n->op == T_AMP && !s->c->dialect_017 && n->a->kind == N_VAR)
		return sema_var_addr(s, n, t);
	if (n->op == T_AMP && s->c->lang_d)
		return sema_d_addr(s, n, t);
	if (n->op == T_AMP) {
		ERR(s, n->loc, E_TYPE, "operator '&' is not supported on %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	if (!is_int(t)) {
		if (!sema_d_op_error(s, n, n->op, 1, t, NULL))
			ERR(s, n->loc, E_TYPE, "operator '%s' cannot take %s",
			    tok_spelling(n->op), type_name(t));
		return set(n, &ty_error);
	}
	set(n, n->op == T_BANG ? sema_bool_type(s) : ty_promote(t));
	fold(n, s->c->lang_d);
	return n->ty;
}

/* && and || */
static struct type *e_logic(struct sema *s, struct node *n)
{
	struct type *a = sema_expr(s, n->a), *b = sema_expr(s, n->b);

	if (is_err(a) || is_err(b))
		return set(n, &ty_error);
	if ((!is_int(a) || !is_int(b)) &&
	    sema_d_op_error(s, n, n->kind == N_LAND ? T_LAND : T_LOR, 0, a, b))
		return set(n, &ty_error);
	if (!is_int(a) || !is_int(b)) {
		ERR(s, n->loc, E_TYPE, "operator '%s' needs integers, not %s and %s",
		    n->kind == N_LAND ? "&&" : "||", type_name(a), type_name(b));
		return set(n, &ty_error);
	}
	return set(n, sema_bool_type(s));
}

static struct type *e_ternary(struct sema *s, struct node *n)
{
	struct type *c = sema_expr(s, n->a), *a = sema_expr(s, n->b),
		    *b = sema_expr(s, n->c);

	if (is_err(c) || is_err(a) || is_err(b))
		return set(n, &ty_error);
	if (!is_int(c) && sema_d_op_error(s, n, -1, 1, c, NULL))
		return set(n, &ty_error);
	if (!is_int(c)) {
		ERR(s, n->a->loc, E_TYPE, "condition must be an integer, not %s",
		    type_name(c));
		return set(n, &ty_error);
	}
	if (s->c->lang_d && (a->kind == TY_VOID || b->kind == TY_VOID)) {
		DERR(s, n->loc, E_TYPE, "D_OP_ACT",
		     "action cannot be used in a conditional context");
		return set(n, &ty_error);
	}
	if (a->boolean && b->boolean)
		return set(n, a);
	if (is_int(a) && is_int(b))
		return set(n, ty_arith(a, b));
	if (a->kind == TY_STR && b->kind == TY_STR)
		return set(n, str_type(s, a->size > b->size ? a->size : b->size));
	/* buffers, tuples, ...: the type both fit in */
	if (a->kind == b->kind && a->kind != TY_VOID && a->kind != TY_MAPREF) {
		struct type *u = sema_unify(s, sema_storage(s, a),
					    sema_storage(s, b));

		if (u)
			return set(n, u);
	}
	/* $x ? printf("a") : exit(), a statement: as in bpftrace 0.17 */
	if (a->kind == TY_VOID && b->kind == TY_VOID)
		return set(n, &ty_void);
	ERR(s, n->loc, E_TYPE,
	    "the branches of '?:' have different types: %s and %s",
	    type_name(a), type_name(b));
	return set(n, &ty_error);
}

/* a ?: b: a when it is not zero, else b; a is evaluated once. */
static struct type *e_elvis(struct sema *s, struct node *n)
{
	struct type *a = sema_expr(s, n->a), *b = sema_expr(s, n->b);

	if (is_err(a) || is_err(b))
		return set(n, &ty_error);
	if (!is_int(a) || !is_int(b)) {
		ERR(s, n->loc, E_TYPE,
		    "'?:' without a middle operand takes integers or pointers, not %s and %s",
		    type_name(a), type_name(b));
		return set(n, &ty_error);
	}
	if (n->a->is_const && (n->a->cval || n->b->is_const)) {
		n->is_const = 1;
		n->cval = n->a->cval ? n->a->cval : n->b->cval;
	}
	if (a->kind == TY_PTR && ty_equal(a, b))
		return set(n, a);
	return set(n, ty_arith(a, b));
}

/* ++ and -- of a variable or a map value. */
static struct type *e_incdec(struct sema *s, struct node *n)
{
	struct node *a = n->a;
	struct type *t;

	if (a->kind == N_VAR) {
		struct var *v = sema_var_find(s, a->name);

		if (v)	/* let $n; $n++ counts from zero */
			v->unset = false;
		t = sema_expr(s, a);
	} else if (a->kind == N_MAP) {
		struct mapinfo *m = sema_map_keys(s, a);

		a->map = m;
		if (m->agg != AGG_NONE) {
			ERR(s, n->loc, E_MAP, "%s holds %s and cannot be incremented",
			    m->name, sema_agg_name(m->agg));
			return set(n, &ty_error);
		}
		m->written = m->read = true;
		if (!m->val)
			m->val = &ty_s64;
		t = a->ty = m->val;
	} else if (s->c->lang_d) {
		sema_expr(s, a);
		sema_d_not_lvalue(s, a, tok_spelling(n->op));
		return set(n, &ty_error);
	} else {
		ERR(s, n->loc, E_TYPE, "'%s' needs a variable or a map",
		    tok_spelling(n->op));
		return set(n, &ty_error);
	}
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		if (!sema_d_op_error(s, n, n->op, 1, t, NULL))
			ERR(s, n->loc, E_TYPE, "'%s' cannot take %s",
			    tok_spelling(n->op), type_name(t));
		return set(n, &ty_error);
	}
	return set(n, t);
}

/* (struct task_struct *)curtask: a kernel pointer, its target typed
 * from BTF (or the script's own struct); T is the operand's type. */
static struct type *cast_ptr(struct sema *s, struct node *n, struct type *t)
{
	struct type *target = ty_by_name(n->tyname), *to;
	const char *why = NULL;

	if (!target && !strcmp(n->tyname, "void"))	/* (void *)p */
		target = &ty_void;
	if (!target)
		target = cdecl_type_by_name(s->c, n->tyname);
	if (!target && !btf_kernel(s->c, &why)) {
		ERR(s, n->loc, E_TYPE, "cannot cast to '%s *': %s", n->tyname,
		    why);
		return set(n, &ty_error);
	}
	if (!target) {
		ERR(s, n->loc, E_TYPE, "unknown type '%s' (not in the kernel's BTF)",
		    n->tyname);
		return set(n, &ty_error);
	}
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t) && t->kind != TY_PTR) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to a pointer", type_name(t));
		return set(n, &ty_error);
	}
	to = ty_ptr_chain(&s->c->arena, target, n->tyname_ptr);
	/* (struct foo *)uptr(arg0): each level in the same memory */
	for (struct type *q = to; q && q->kind == TY_PTR; q = q->pointee) {
		q->user = t->user;
		q->kernel = t->kernel;
	}
	return set(n, to);
}

/* (uint8)x, (bool)x: an integer conversion, folded when x is known. */
/* (string[N])x, (string)x of a string (today's bpftrace): a literal
 * becomes a literal of that size; another string keeps its own, as its
 * value fits one of N bytes when it is not longer. */
static struct type *string_cast(struct sema *s, struct node *n,
				struct type *t)
{
	int size = n->tydim > 0 ? n->tydim : t->size;

	if (is_err(t))
		return set(n, &ty_error);
	/* D: (string)p is the string at p, as stringof(p) */
	if (s->c->lang_d && !n->tydim && (t->kind == TY_PTR || is_int(t))) {
		struct node *a = n->a;

		n->kind = N_CALL;
		n->name = "str";
		n->dname = "stringof";
		n->tyname = NULL;
		n->args = arena_alloc(&s->c->arena, sizeof(*n->args));
		n->args[0] = a;
		n->nargs = 1;
		n->a = NULL;
		return sema_expr(s, n);
	}
	if (t->kind != TY_STR || n->tydim < 0) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to string%s", type_name(t),
		    n->tydim < 0 ? "[] (give the size: string[N])" : "");
		return set(n, &ty_error);
	}
	if (n->a->kind == N_STR) {
		struct node *lit = n->a;

		*n = *lit;
		if ((size_t)size < n->len + 1)
			n->len = (size_t)size - 1;
		return set(n, str_type(s, size));
	}
	if (size < t->size) {
		ERR(s, n->loc, E_TYPE, "(string[%d]) of %s would cut it; str(x, %d) does",
		    size, type_name(t), size);
		return set(n, &ty_error);
	}
	*n = *n->a;
	return n->ty;
}

static struct type *e_cast(struct sema *s, struct node *n)
{
	struct type *to = n->tyname_ptr ? NULL : ty_by_name(n->tyname);
	struct type *t = sema_expr(s, n->a);

	if (sema_d_type_words(s, n, n->tyname))
		return set(n, &ty_error);
	/* a declared variable given a value of another kind */
	if (n->dname && !is_err(t) && t->kind == TY_STR &&
	    strcmp(n->tyname, "string")) {
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operands have incompatible types: \"%s\" = \"string\"",
		     n->tyname);
		return set(n, &ty_error);
	}
	if (n->tyname_ptr)
		return cast_ptr(s, n, t);
	if (!strcmp(n->tyname, "string"))
		return string_cast(s, n, t);
	if (n->tydim || (to && to->kind == TY_INT && t->kind == TY_ARRAY))
		return sema_array_cast(s, n, t);
	if (!to && !strncmp(n->tyname, "enum ", 5))
		return sema_enum_cast(s, n, t);
	if (!to) {	/* a typedef of an integer (the script's or BTF's) */
		to = cdecl_type_by_name(s->c, n->tyname);
		if (!to)
			to = btf_type_by_name(s->c, n->tyname);
		if (to && to->kind != TY_INT)
			to = NULL;
	}
	if (!to) {
		ERR(s, n->loc, E_TYPE, "cannot cast to '%s%s' (struct and pointer types come with BTF support)",
		    n->tyname, n->tyname_ptr ? " *" : "");
		return set(n, &ty_error);
	}
	if (is_err(t))
		return set(n, &ty_error);
	if (to->boolean && !is_int(t))
		return sema_bool_cast(s, n, t);
	if (!is_int(t)) {
		ERR(s, n->loc, E_TYPE, "cannot cast %s to %s", type_name(t),
		    type_name(to));
		return set(n, &ty_error);
	}
	if (to->boolean) {
		n->op = 1;	/* cg: compare with zero */
		if (n->a->is_const) {
			n->is_const = 1;
			n->cval = n->a->cval != 0;
		}
		return set(n, to);
	}
	if (n->a->is_const) {
		int sh = 64 - to->size * 8;
		uint64_t u = (uint64_t)n->a->cval;

		n->is_const = 1;
		n->cval = to->is_signed ? (int64_t)(u << sh) >> sh
					: (int64_t)((u << sh) >> sh);
	}
	return set(n, to);
}

/* args.NAME, p->member of a kernel struct, or $tuple.N. */
static struct type *e_field(struct sema *s, struct node *n)
{
	struct type *t;

	if (n->a->kind == N_BUILTIN && !strcmp(n->a->name, "args"))
		return sema_args_field(s, n);
	t = sema_expr(s, n->a);
	if (is_err(t))
		return set(n, &ty_error);
	if (s->c->lang_d && sema_d_member_op(s, n, t))
		return set(n, &ty_error);
	if (t->kind == TY_PTR || t->kind == TY_STRUCT)
		return sema_btf_field(s, n, t);
	if (t->kind == TY_TUPLE && t->names)
		return sema_record_field(s, n, t);
	if (t->kind == TY_TUPLE && n->op == T_DOT &&
	    n->name[0] >= '0' && n->name[0] <= '9') {
		if (n->ival >= (uint64_t)t->nelem) {
			ERR(s, n->loc, E_TYPE, "tuple index %s is out of range (%d elements)",
			    n->name, t->nelem);
			return set(n, &ty_error);
		}
		return set(n, t->elem[n->ival]);
	}
	ERR(s, n->loc, E_TYPE, "%s has no field '%s'", type_name(t), n->name);
	return set(n, &ty_error);
}

/* The type of an element of T, in user memory when T is. */
static struct type *elem_of(struct sema *s, const struct type *t,
			    struct type *e)
{
	struct type *u;

	if (!t->user || e->user ||
	    (e->kind != TY_PTR && e->kind != TY_STRUCT && e->kind != TY_ARRAY))
		return e;
	u = arena_alloc(&s->c->arena, sizeof(*u));
	*u = *e;
	u->user = true;
	return u;
}

/* a[i]: an element of an array (a constant index must be inside it),
 * or p[i], *(p + i) of a pointer. */
static struct type *e_index(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->a), *it = sema_expr(s, n->b);

	if (is_err(t) || is_err(it))
		return set(n, &ty_error);
	if (!is_int(it)) {
		ERR(s, n->b->loc, E_TYPE, "an index must be an integer, not %s",
		    type_name(it));
		return set(n, &ty_error);
	}
	if (t->kind == TY_ARRAY) {
		/* &a[N], one past the end, is an address C allows (D:
		 * lang/dlower.c marks it) */
		if (n->b->is_const &&
		    (n->b->cval < 0 || n->b->cval >= t->nelem + (n->ival == 1))) {
			ERR(s, n->b->loc, E_TYPE,
			    "index %lld is out of bounds of %s (%d elements)",
			    (long long)n->b->cval, type_name(t), t->nelem);
			return set(n, &ty_error);
		}
		return set(n, elem_of(s, t, t->of));
	}
	if (t->kind == TY_PTR && t->pointee && t->pointee->size)
		return set(n, elem_of(s, t, t->pointee));
	if (t->kind == TY_STR)
		return sema_str_index(s, n, t);
	if (t->kind == TY_TUPLE)
		return sema_tuple_index(s, n) ? e_field(s, n) : set(n, &ty_error);
	ERR(s, n->loc, E_TYPE, "%s cannot be indexed", type_name(t));
	return set(n, &ty_error);
}

/* What a tuple may hold: strings, tuples and values of one word. */
static bool tuple_elem(const struct type *t)
{
	return t->kind == TY_STR || t->kind == TY_TUPLE || t->kind == TY_USYM ||
	       t->kind == TY_INET || t->kind == TY_MAC || t->kind == TY_BUF ||
	       t->kind == TY_TSTAMP || t->kind == TY_ARRAY ||
	       t->kind == TY_STRUCT || t->kind == TY_CGPATH || ty_is_word(t);
}

static struct type *e_tuple(struct sema *s, struct node *n)
{
	struct type **e = arena_alloc(&s->c->arena, sizeof(*e) * (size_t)n->nargs);

	for (int i = 0; i < n->nargs; i++) {
		e[i] = sema_expr(s, n->args[i]);
		if (is_err(e[i]))
			return set(n, &ty_error);
		if (!tuple_elem(e[i])) {
			ERR(s, n->args[i]->loc, E_TYPE, "a tuple cannot hold %s",
			    type_name(e[i]));
			return set(n, &ty_error);
		}
	}
	/* integers keep their width: (int8, int16) is 4 bytes, as in
	 * bpftrace 0.17; struct values learn their members */
	for (int i = 0; i < n->nargs; i++)
		if (e[i]->kind != TY_INT)
			e[i] = sema_storage(s, e[i]);
		else if (e[i]->literal)	/* a literal's sign is its place's */
			e[i] = &ty_s64;
	if (n->fnames)
		return sema_record(s, n, e);
	return set(n, ty_tuple(&s->c->arena, e, n->nargs));
}

/* sizeof(TYPE) or sizeof(expr): a constant. */
static struct type *e_sizeof(struct sema *s, struct node *n)
{
	struct type *t;

	if (n->tyname) {
		t = n->tyname_ptr ? &ty_u64 : ty_by_name(n->tyname);
		if (!t && !n->tyname_ptr)
			t = cdecl_type_by_name(s->c, n->tyname);
		if (!t && !n->tyname_ptr)	/* float, double */
			t = cdecl_float(s->c, n->tyname);
		if (!t && s->c->lang_d && !strcmp(n->tyname, "void")) {
			DERR(s, n->loc, E_TYPE, "D_SIZEOF_TYPE",
			     "cannot apply sizeof to an operand of unknown size");
			return set(n, &ty_error);
		}
		if (!t) {
			ERR(s, n->loc, E_TYPE, "unknown type '%s'", n->tyname);
			return set(n, &ty_error);
		}
		if (n->tydim < 0) {
			ERR(s, n->loc, E_TYPE, "sizeof(%s[]) needs the number of elements",
			    n->tyname);
			return set(n, &ty_error);
		}
		if (n->tydim)
			t = ty_array(&s->c->arena, t, n->tydim);
	} else {
		t = sema_expr(s, n->a);
		if (is_err(t))
			return set(n, &ty_error);
		if (s->c->lang_d && n->a->kind == N_FIELD && n->a->fbits) {
			DERR(s, n->loc, E_TYPE, "D_SIZEOF_BITFIELD",
			     "cannot apply sizeof to a bit-field");
			return set(n, &ty_error);
		}
		if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
			ERR(s, n->a->loc, E_TYPE, "sizeof needs a value, not %s",
			    t->kind == TY_VOID ? "a call without one" :
			    "a whole map");
			return set(n, &ty_error);
		}
	}
	n->is_const = 1;
	n->cval = t->size;
	/* D: every string is strsize bytes ("ab" as much as execname) */
	if (s->c->lang_d && t->kind == TY_STR)
		n->cval = (uint64_t)s->c->strlen_;
	return set(n, &ty_u64);
}

/* The expression kinds of ast.def, each with its checker. */
static struct type *(*const expr_fns[N_NKINDS])(struct sema *, struct node *) = {
	[N_INT] = e_int,
	[N_STR] = e_str,
	[N_VAR] = e_var,
	[N_MAP] = e_map,
	[N_POSITIONAL] = e_positional,
	[N_NARGS] = e_nargs,
	[N_BUILTIN] = sema_builtin,
	[N_CALL] = e_call,
	[N_BINOP] = e_binop,
	[N_UNOP] = e_unop,
	[N_LAND] = e_logic,
	[N_LOR] = e_logic,
	[N_TERNARY] = e_ternary,
	[N_INCDEC] = e_incdec,
	[N_CAST] = e_cast,
	[N_FIELD] = e_field,
	[N_INDEX] = e_index,
	[N_TUPLE] = e_tuple,
	[N_SIZEOF] = e_sizeof,
	[N_ELVIS] = e_elvis,
	[N_BLOCKEXPR] = sema_block_expr,
	[N_OFFSETOF] = sema_offsetof,
};

struct type *sema_expr(struct sema *s, struct node *n)
{
	if ((unsigned)n->kind < N_NKINDS && expr_fns[n->kind])
		return expr_fns[n->kind](s, n);
	ERR(s, n->loc, E_SYNTAX, "%s is not an expression",
	    node_kind_name(n->kind));
	return set(n, &ty_error);
}
