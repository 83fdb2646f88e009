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

static struct node *declared(struct sema *s, const char *name)
{
	for (struct node *v = s->c->ast->dvars; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

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
	return m->ty = t ? t : &ty_error;
}

void sema_d_declared_map(struct sema *s, struct mapinfo *m)
{
	struct node *v = s->c->lang_d ? declared(s, m->name) : NULL;
	struct type *t;

	if (!v)
		return;
	t = sema_d_var_type(s, v);
	if (is_err(t))
		return;
	if (v->ival & DV_INT) {	/* converted where assigned (dlower.c) */
		if (t->kind == TY_INT)
			m->dsize = t->size;
		return;
	}
	m->val = t->kind == TY_INT ? t : sema_storage(s, t);
	if (t->kind == TY_INT)
		m->dsize = t->size;
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
