/* sema_scope.c - scratch variables' declarations and scope.
 *
 * `let $x [: TYPE] [= value]` declares a variable; a declared type is
 * fixed, and each later assignment is checked against it.  Under
 * bpftrace 0.17's rules (--dialect=0.17) a variable belongs to its
 * whole probe block.  Under 0.26's it belongs to the block that
 * declares it (with let, or by its first assignment): it is live from
 * there to the block's end, an inner block may not declare the same
 * name again (no shadowing), and two sibling blocks may each have their
 * own variable of one name, even of different types.
 *
 * Sema walks the program three times; a variable is one struct var
 * across the walks, found again by the node that declared it.  While a
 * walk goes, s->live holds the live variables, innermost block last,
 * so that leaving a block ends its own.
 */
#include "sema/sema_int.h"

#include <stdlib.h>
#include <string.h>

#include "lang/lex.h"
#include "sema/cdecl.h"

void sema_var_live(struct sema *s, struct var *v)
{
	if (s->nlive == s->live_cap) {
		int cap = s->live_cap ? s->live_cap * 2 : 32;
		struct var **nv = arena_alloc(&s->c->arena,
					      sizeof(*nv) * (size_t)cap);

		if (s->nlive)
			memcpy(nv, s->live, sizeof(*nv) * (size_t)s->nlive);
		s->live = nv;
		s->live_cap = cap;
	}
	s->live[s->nlive++] = v;
	v->live = true;
}

void sema_scope_reset(struct sema *s)
{
	for (struct var *v = s->pi->vars; v; v = v->next) {
		v->live = false;
		v->unset = false;
	}
	s->nlive = 0;
	s->scope = NULL;
}

struct node *sema_scope_enter(struct sema *s, struct node *b)
{
	struct node *outer = s->scope;

	if (s->scoped)
		s->scope = b;
	return outer;
}

void sema_scope_leave(struct sema *s, struct node *outer)
{
	if (!s->scoped)
		return;
	while (s->nlive && s->live[s->nlive - 1]->scope == s->scope)
		s->live[--s->nlive]->live = false;
	s->scope = outer;
}

struct var *sema_var_lookup(struct sema *s, struct node *target)
{
	struct var *v = sema_var_find(s, target->name);

	if (v || !s->scoped)
		return v;
	for (v = strmap_get(&s->pi->var_names, target->name); v; v = v->same)
		if (v->decl == target) {
			sema_var_live(s, v);
			return v;
		}
	return NULL;
}

/* Is V declared in the innermost block (else in an enclosing one)? */
static bool same_scope(struct sema *s, const struct var *v)
{
	return !s->scoped || v->scope == s->scope;
}

/* The error for declaring VAR (an N_VAR) where V is in scope. */
static void redeclared(struct sema *s, struct node *var, struct var *v)
{
	if (same_scope(s, v))
		ERR(s, var->loc, E_SCOPE,
		    "%s is already declared in this block (at %d:%d)",
		    var->name, v->first.line, v->first.col);
	else
		ERR(s, var->loc, E_SCOPE,
		    "%s shadows the variable of an enclosing block (declared at %d:%d); use another name",
		    var->name, v->first.line, v->first.col);
}

/* The type a `let $x: TYPE` names: string[N], an integer type (bool is
 * uint8), a pointer, a struct of the script or of the kernel. */
static struct type *decl_type(struct sema *s, struct node *n)
{
	struct type *t;

	if (!strcmp(n->tyname, "string") && !n->tyname_ptr)
		return str_type(s, n->ival ? (int)n->ival : s->c->strlen_);
	if (!strcmp(n->tyname, "void") && n->tyname_ptr)
		t = &ty_void;
	else
		t = ty_by_name(n->tyname);
	if (!t) {
		/* the script's or the kernel's: a struct, a typedef */
		t = cdecl_type_by_name(s->c, n->tyname);
		if (t && t->kind != TY_INT && t->kind != TY_STRUCT &&
		    t->kind != TY_PTR && !n->tyname_ptr) {
			ERR(s, n->loc, E_TYPE,
			    "a variable cannot be declared of type '%s'",
			    n->tyname);
			return &ty_error;
		}
	}
	if (!t) {
		ERR(s, n->loc, E_TYPE, "unknown type '%s'", n->tyname);
		return &ty_error;
	}
	if (n->tyname_ptr) {
		struct type *p = arena_alloc(&s->c->arena, sizeof(*p));

		p->kind = TY_PTR;
		p->size = 8;
		p->pointee = n->tyname_ptr == 1 && t->kind != TY_VOID ? t : NULL;
		t = p;
	}
	if (n->ival)	/* TYPE[N] */
		t = ty_array(&s->c->arena, t, (int)n->ival);
	return t;
}

void sema_let(struct sema *s, struct node *n)
{
	struct node *var = n->a;
	/* D: a declared clause-local (lang/dlower.c) */
	struct type *t = n->c && n->c->kind == N_MEMBER ?
			 sema_d_var_type(s, n->c) :
			 n->tyname ? decl_type(s, n) : NULL;
	struct var *v = sema_var_lookup(s, var);

	if (v && v->decl != var) {
		redeclared(s, var, v);
		if (n->b)
			sema_expr(s, n->b->b);
		return;
	}
	if (!v)
		v = sema_var_new(s, var, t ? t : &ty_void);
	if (t) {
		v->ty = t;
		/* D converts what an integer gets (lang/dlower.c) */
		v->typed = !is_err(t) && !(s->c->lang_d && t->kind == TY_INT);
	}
	/* `let $x;` holds zero until assigned */
	v->defined = true;
	var->var = v;
	var->ty = v->ty;
	if (!n->b) {
		v->unset = !s->c->lang_d;
		return;
	}
	/* its own value cannot read it: `let $x = $x` is undefined; the
	 * assignment makes it live again */
	if (s->scoped)
		v->live = false;
	v->in_init = true;
	sema_stmt(s, n->b);
	v->in_init = false;
	if (s->scoped && !v->live)	/* the value was refused early */
		sema_var_live(s, v);
	if (v->ty->kind == TY_VOID)	/* it was: no more errors for it */
		v->ty = &ty_error;
}

void sema_never_set(struct sema *s)
{
	struct var **in_order;
	int n = 0, i = 0;

	if (!s->report || s->c->diag.nerrors)
		return;
	for (struct var *v = s->pi->vars; v; v = v->next)
		n += v->unset;
	if (!n)
		return;
	/* the list is newest first: say them in the script's order */
	in_order = xmalloc(sizeof(*in_order) * (size_t)n);
	for (struct var *v = s->pi->vars; v; v = v->next)
		if (v->unset)
			in_order[i++] = v;
	while (i--)
		diag_warn(&s->c->diag, in_order[i]->first,
			  "variable %s is declared but never assigned",
			  in_order[i]->name);
	free(in_order);
}

/* Does constant C fit integer type T? */
static bool fits(int64_t c, bool is_unsigned_const, const struct type *t)
{
	int bits = t->size * 8;

	if (bits == 64)
		return t->is_signed ? !is_unsigned_const || c >= 0 :
				      is_unsigned_const || c >= 0;
	if (t->is_signed)
		return c >= -((int64_t)1 << (bits - 1)) &&
		       c < ((int64_t)1 << (bits - 1));
	return c >= 0 && c < ((int64_t)1 << bits);
}

bool sema_typed_assign(struct sema *s, struct node *n, struct var *v,
		       struct type *t)
{
	struct node *val = n->b, *target = n->a;
	struct type *vt = v->ty;

	if (!v->typed)
		return false;
	target->var = v;
	target->ty = vt;
	v->defined = true;
	if (is_err(t))
		return true;
	if (vt->kind == TY_INT && is_int(t)) {
		if (val->is_const) {
			bool uc = t->kind == TY_INT && !t->is_signed &&
				  t->size == 8;

			if (!fits(val->cval, uc, vt))
				ERR(s, val->loc, E_TYPE,
				    uc ? "%llu does not fit %s, the type of %s; cast it to say so" :
					 "%lld does not fit %s, the type of %s; cast it to say so",
				    (long long)val->cval, type_name(vt), v->name);
			return true;
		}
		/* a value of another width converts to it (as a cast);
		 * a variable's or map's of the other sign may change its
		 * meaning (sonde's arithmetic is int64: no warning there) */
		if (s->report && t->kind == TY_INT &&
		    (val->kind == N_VAR || val->kind == N_MAP) &&
			 t->is_signed != vt->is_signed)
			diag_warn(&s->c->diag, val->loc,
				  "%s assigned to %s %s: the sign may change",
				  type_name(t), type_name(vt), v->name);
		return true;
	}
	if (vt->kind == TY_PTR && is_int(t))
		return true;
	if (vt->kind == TY_STR && t->kind == TY_STR) {
		if (val->kind == N_STR && (int)val->len + 1 > vt->size)
			ERR(s, val->loc, E_TYPE,
			    "the string (%d bytes with its NUL) does not fit %s, the type of %s",
			    (int)val->len + 1, type_name(vt), v->name);
		return true;
	}
	if (ty_equal(vt, sema_storage(s, t)))
		return true;
	ERR(s, n->loc, E_TYPE, "%s is declared %s (at %d:%d); cannot assign %s",
	    v->name, type_name(vt), v->first.line, v->first.col,
	    type_name(t));
	return true;
}

void sema_loop_var(struct sema *s, struct node *var)
{
	struct var *v = sema_var_find(s, var->name);

	if (s->scoped && v && v->decl != var)
		redeclared(s, var, v);
}

struct type *sema_block_expr(struct sema *s, struct node *n)
{
	struct node *outer = sema_scope_enter(s, n);
	struct type *t;

	for (int i = 0; i < n->nargs - 1; i++)
		sema_stmt(s, n->args[i]);
	t = sema_expr(s, n->args[n->nargs - 1]);
	sema_scope_leave(s, outer);
	if (n->nargs == 1 && n->args[0]->is_const) {
		n->is_const = 1;
		n->cval = n->args[n->nargs - 1]->cval;
	}
	return set(n, t);
}

void sema_undeclared(struct sema *s, struct node *n)
{
	struct var *v = strmap_get(&s->pi->var_names, n->name);

	if (v && v->in_init)
		ERR(s, n->loc, E_UNDEF,
		    "undefined or undeclared variable %s: the value of its own declaration cannot read it",
		    n->name);
	else if (v && v->first.off < n->loc.off && v->first.file == n->loc.file)
		ERR(s, n->loc, E_UNDEF,
		    "undefined or undeclared variable %s: the one at %d:%d belongs to a block that has ended; declare it before that block (let %s;)",
		    n->name, v->first.line, v->first.col, n->name);
	else
		ERR(s, n->loc, E_UNDEF, "undefined or undeclared variable %s",
		    n->name);
}

struct type *sema_str_index(struct sema *s, struct node *n, struct type *t)
{
	if (n->b->is_const && (n->b->cval < 0 ||
			       n->b->cval >= t->size + (n->ival == 1))) {
		ERR(s, n->b->loc, E_TYPE,
		    "index %lld is out of bounds of %s (indexes 0 to %d)",
		    (long long)n->b->cval, type_name(t), t->size - 1);
		return set(n, &ty_error);
	}
	return set(n, &ty_s8);
}

bool sema_tuple_index(struct sema *s, struct node *n)
{
	if (!n->b->is_const) {
		ERR(s, n->b->loc, E_TYPE,
		    "a tuple's index must be a constant (its elements have types of their own)");
		return false;
	}
	n->kind = N_FIELD;
	n->op = T_DOT;
	n->ival = (uint64_t)n->b->cval;
	n->name = arena_printf(&s->c->arena, "%lld", (long long)n->b->cval);
	n->b = NULL;
	return true;
}

struct type *sema_var_addr(struct sema *s, struct node *n, struct type *t)
{
	struct type *p = arena_alloc(&s->c->arena, sizeof(*p));

	/* the variable's slot is on BPF's stack or in the scratch buffer,
	 * kernel memory; an integer is kept in 8 bytes, low byte first,
	 * so that a pointer to its C type reads it right */
	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = t;
	p->kernel = true;
	return set(n, p);
}
