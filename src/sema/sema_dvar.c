/* sema_dvar.c - D's declared variables: the type a declaration gives a
 * global, a thread-local, an associative array or a clause-local from
 * the start ("struct coords p;", "int a[5];", "int *x;", "string
 * s[int];", "this struct s v;"), and stores into a member or an element
 * of a clause-local ("this->p.x = 1"; lang/dlower.c made a global's
 * such store one into a clause-local).  D only; part of sema. */
#include "sema/sema.h"
#include "sema/sema_int.h"
#include "lang/lex.h"
#include "sema/cdecl.h"

#include <string.h>

/* NAME without its "self->" or "$this->", as D spells it. */
static const char *d_name(const char *name)
{
	const char *arrow = strstr(name, "->");

	return arrow ? arrow + 2 : name;
}

struct type *sema_d_var_type(struct sema *s, struct node *m)
{
	struct type *t;

	if (m->ty)
		return m->ty;
	if (!strcmp(m->tyname, "void") && !m->tyname_ptr) {
		/* said once, whichever pass asks first (as cdecl.c
		 * says an unknown type) */
		diag_error_d(&s->c->diag, m->loc, E_TYPE, "D_DECL_VOIDOBJ",
			     "cannot have void object: %s", d_name(m->name));
		return m->ty = &ty_error;
	}
	if (!strcmp(m->tyname, "string") && !m->tyname_ptr && !m->nargs)
		t = str_type(s, s->c->strlen_);
	else
		t = cdecl_member_type(s->c, m);
	if (t && t->kind == TY_PTR && !t->kernel) {
		/* D's pointers are the kernel's, in a uprobe's clause
		 * too: user memory is copyin()'s */
		struct type *k = arena_alloc(&s->c->arena, sizeof(*k));

		*k = *t;
		k->kernel = true;
		t = k;
	}
	return m->ty = t ? t : &ty_error;
}

void sema_d_declared_map(struct sema *s, struct mapinfo *m)
{
	struct node *v = s->c->lang_d ? ast_dvar(s->c->ast, m->name) : NULL;
	struct type *t;

	if (!v)
		return;
	t = sema_d_var_type(s, v);
	if (is_err(t))
		return;
	if (t->kind == TY_INT)
		m->dsize = t->size;
	/* an integer's is converted where it is assigned (dlower.c) */
	if (!(v->ival & DV_INT))
		m->val = t->kind == TY_INT ? t : sema_storage(s, t);
}

/* Can a value of type U be stored in a place of type T? */
static bool storable(const struct type *t, const struct type *u)
{
	if (t->kind == TY_INT || t->kind == TY_PTR)
		return is_int(u) || u->kind == TY_PTR;
	if (t->kind == TY_STR)
		return u->kind == TY_STR;
	return ty_equal(t, u);
}

bool sema_d_member_store(struct sema *s, struct node *n, struct type *u)
{
	struct node *r = n->a;
	struct type *t;

	while ((r->kind == N_FIELD && r->op == T_DOT) || r->kind == N_INDEX)
		r = r->a;
	if (r == n->a || r->kind != N_VAR)
		return false;
	t = sema_expr(s, n->a);
	if (is_err(t) || is_err(u))
		return true;
	/* p[i] = v of a pointer p: a store through it (sema_dscratch.c) */
	if (sema_d_through_pointer(n->a))
		return false;
	for (r = n->a; r->kind != N_VAR; r = r->a)
		if (r->kind == N_INDEX && (!r->b->is_const ||
					   r->a->ty->kind != TY_ARRAY)) {
			ERR(s, r->b->loc, E_TYPE,
			    "storing into an element of an array variable needs a constant index");
			return true;
		}
	if (n->op != T_ASSIGN && (!is_int(t) || !is_int(u)))
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operator %s requires operands of arithmetic type",
		     tok_spelling(n->op));
	else if (!storable(t, u))
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operands have incompatible types: \"%s\" = \"%s\"",
		     sema_d_type_name(t), sema_d_type_name(u));
	return true;
}

/* &X (E_UNOP N) of a D variable's member or element, X of type T: a
 * pointer into the map value that holds a global ("&a[0]" of "int
 * a[5];", "&g.pos"); the address of a whole variable, of a dynamic one
 * (an associative array's element, a thread-local, an aggregation) and
 * of a bitfield cannot be taken, as in DTrace. */
struct type *sema_d_addr(struct sema *s, struct node *n, struct type *t)
{
	struct node *r = n->a;

	if (r->kind == N_FIELD && r->fbits) {
		DERR(s, n->loc, E_TYPE, "D_ADDROF_BITFIELD",
		     "cannot take address of bit-field");
		return set(n, &ty_error);
	}
	if (sema_d_through_pointer(r))	/* &p[i], &p->m */
		return sema_d_place_addr(s, n, t);
	while ((r->kind == N_FIELD && r->op == T_DOT &&
		r->a->ty->kind == TY_STRUCT) ||
	       (r->kind == N_INDEX && (r->a->ty->kind == TY_ARRAY ||
				       r->a->ty->kind == TY_STR) &&
		r->b->is_const))
		r = r->a;
	if (r->kind != N_MAP && r->kind != N_VAR && r->kind != N_FIELD &&
	    r->kind != N_INDEX && r->kind != N_BUILTIN &&
	    !(r->kind == N_UNOP && r->op == T_STAR)) {
		/* &1, &(x + 1): no object to take the address of */
		DERR(s, n->loc, E_TYPE, "D_ADDROF_LVAL",
		     "unacceptable operand for unary & operator");
		return set(n, &ty_error);
	}
	if (r->kind != N_MAP) {
		ERR(s, n->loc, E_TYPE, "operator '&' is not supported on %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	if (r == n->a || r->nargs || r->name[0] == '@') {
		DERR(s, n->loc, E_TYPE, "D_ADDROF_VAR",
		     "cannot take address of dynamic variable");
		return set(n, &ty_error);
	}
	/* a map's memory, in a uprobe's clause too */
	return set(n, sema_d_kptr(s, t));
}

/* A node of KIND at N's place. */
static struct node *node_at(struct sema *s, enum node_kind kind,
			    const struct node *n)
{
	struct node *x = arena_alloc(&s->c->arena, sizeof(*x));

	x->kind = kind;
	x->loc = n->loc;
	return x;
}

/* (int64)N */
static struct node *as_int64(struct sema *s, struct node *n)
{
	struct node *c = node_at(s, N_CAST, n);

	c->tyname = "int64";
	c->a = n;
	return c;
}

bool sema_d_ptr_arith(struct sema *s, struct node *n, struct type *a,
		      struct type *b)
{
	struct node *sub, *size;

	if ((a->kind == TY_PTR && !a->pointee && is_int(b) &&
	     b->kind != TY_PTR) ||
	    (b->kind == TY_PTR && !b->pointee && is_int(a) &&
	     a->kind != TY_PTR)) {
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operands have incompatible types: \"%s\" %s \"%s\"",
		     sema_d_type_name(a), tok_spelling(n->op),
		     sema_d_type_name(b));
		set(n, &ty_error);
		return true;
	}
	/* q - p of two pointers to one type: how many of it apart */
	if (n->op != T_MINUS || a->kind != TY_PTR || b->kind != TY_PTR ||
	    !a->pointee || !b->pointee || !ty_equal(a->pointee, b->pointee) ||
	    a->pointee->size <= 1)
		return false;
	sub = node_at(s, N_BINOP, n);
	sub->op = T_MINUS;
	sub->a = as_int64(s, n->a);
	sub->b = as_int64(s, n->b);
	size = node_at(s, N_INT, n);
	size->ival = (uint64_t)a->pointee->size;
	n->op = T_SLASH;
	n->a = sub;
	n->b = size;
	sema_expr(s, n);
	return true;
}

bool sema_d_member_op(struct sema *s, struct node *n, const struct type *t)
{
	bool ptr = t->kind == TY_PTR;

	if (n->op == T_ARROW && !ptr) {
		DERR(s, n->loc, E_TYPE, "D_OP_PTR",
		     "operator -> must be applied to a pointer");
		return true;
	}
	if (n->op == T_DOT && ptr) {
		DERR(s, n->loc, E_TYPE, "D_OP_SOU",
		     "operator . cannot be applied to type \"%s\"; must be applied to a struct or union",
		     sema_d_type_name(t));
		return true;
	}
	if (ptr && (!t->pointee || t->pointee->kind != TY_STRUCT)) {
		DERR(s, n->loc, E_TYPE, "D_OP_SOU",
		     "operator -> cannot be applied to pointer to type \"%s\"; must be applied to a struct or union pointer",
		     t->pointee ? sema_d_type_name(t->pointee) : "void");
		return true;
	}
	return false;
}

bool sema_d_store_check(struct sema *s, struct node *n,
			const struct mapinfo *m)
{
	const struct type *t = m->val;

	if (!t && n->op != T_ASSIGN && !s->guess_int) {
		DERR(s, n->a->loc, E_UNDEF, "D_VAR_UNDEF",
		     "%s has not yet been declared or assigned", m->name);
		return true;
	}
	/* dlower.c's store of a whole value back is marked */
	if (!t || t->kind != TY_ARRAY || n->dname)
		return false;
	DERR(s, n->loc, E_TYPE, "D_OP_ARRFUN",
	     "operator = may not be applied to operand of type \"%s\"",
	     sema_d_type_name(t));
	return true;
}
