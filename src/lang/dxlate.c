/* dxlate.c - D's translators (docs/d-language.md, "Translators"): a
 * `translator OUT < IN NAME > { member = expr; ... };` (dparse.c keeps
 * it in prog->dxlators) and its uses, `xlate <OUT *> (e)->member` and
 * `xlate <OUT> (e).member`, which become the member's expression with
 * NAME standing for `(IN)(e)`, cast to the member's type, before
 * dlower.c lowers it as if the script had written it there.  The
 * definitions are checked here too: the output is a struct or union,
 * each member assigned is one of its members, and one translator per
 * pair of types. */
#include <string.h>

#include "lang/dparse.h"

/* TYNAME with *PTR stars, typedefs of the program followed: the
 * struct, union or base type it names. */
static const char *canon(const struct program *prog, const char *tyname,
			 int *ptr)
{
	for (int depth = 0; tyname && depth < 16; depth++) {
		const struct node *t;

		for (t = prog->types; t; t = t->next)
			if (t->kind == N_TYPEDEF && t->name &&
			    !strcmp(t->name, tyname))
				break;
		if (!t)
			return tyname;
		*ptr += t->tyname_ptr;
		tyname = t->tyname;
	}
	return tyname;
}

/* The definition of struct or union NAME among the program's types
 * (also those defined inside a typedef), or NULL. */
static const struct node *sou_def(const struct program *prog, const char *name)
{
	for (const struct node *t = prog->types; t; t = t->next) {
		const struct node *d = t->kind == N_STRUCTDEF ? t :
				       t->kind == N_TYPEDEF ? t->a : NULL;

		if (d && d->kind == N_STRUCTDEF && d->name && d->nargs &&
		    !strcmp(d->name, name))
			return d;
	}
	return NULL;
}

static const struct node *member_of(const struct node *def, const char *name)
{
	for (int i = 0; def && i < def->nargs; i++)
		if (def->args[i]->name && !strcmp(def->args[i]->name, name))
			return def->args[i];
	return NULL;
}

static bool is_sou(const char *t)
{
	return t && (!strncmp(t, "struct ", 7) || !strncmp(t, "union ", 6));
}

static const char *spell(struct compiler *c, const char *tyname, int ptr)
{
	return arena_printf(&c->arena, "%s%s%.*s", tyname, ptr ? " " : "",
			    ptr, "********");
}

/* The script's member that E, a member access in translator X, reads
 * (NULL when not one of the script's structs), E's base checked:
 * `NAME->m`, `((struct s *)NAME)->m`, `((struct s)NAME).m`. */
static const struct node *reads(struct compiler *c, const struct program *prog,
				const struct node *x, const struct node *e)
{
	const struct node *b, *def, *m;
	const char *ty;
	int ptr;

	if (e->kind != N_FIELD || !e->a)
		return NULL;
	b = e->a;
	if (b->kind == N_CAST && b->tyname && !b->tydim) {
		ptr = b->tyname_ptr;
		ty = canon(prog, b->tyname, &ptr);
	} else if (b->kind == N_BUILTIN && !strcmp(b->name, x->name)) {
		ptr = x->a->tyname_ptr;
		ty = canon(prog, x->a->tyname, &ptr);
	} else {
		return NULL;
	}
	if (!is_sou(ty) || ptr != (e->op == T_ARROW) || !(def = sou_def(prog, ty)))
		return NULL;
	m = member_of(def, e->name);
	if (!m)
		diag_error_d(&c->diag, e->loc, E_TYPE, "D_TYPE_MEMBER",
			     "%s is not a member of %s", e->name, ty);
	return m;
}

/* Translator X's members: each one of DEF's (its output type), its
 * expression checked where the script's own types say what it reads
 * (a kernel type's members are sema's); the first error ends it. */
static void check_members(struct compiler *c, const struct program *prog,
			  const struct node *x, const struct node *def)
{
	int errs = c->diag.nerrors;

	for (int i = 0; i < x->nargs && c->diag.nerrors == errs; i++) {
		const struct node *e = x->args[i]->b, *im;
		const struct node *om = member_of(def, x->args[i]->name);

		if (!om) {
			diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_MEMB",
				     "translator member %s is not a member of %s",
				     x->args[i]->name, x->tyname);
			return;
		}
		im = reads(c, prog, x, e);
		if (im && !im->nargs && !om->nargs &&
		    (im->tyname_ptr > 0) != (om->tyname_ptr > 0))
			diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_INCOMPAT",
				     "translator member %s definition uses incompatible types: \"%s\" = \"%s\"",
				     om->name, spell(c, om->tyname, om->tyname_ptr),
				     spell(c, im->tyname, im->tyname_ptr));
	}
}

void d_xlate_check(struct compiler *c, struct program *prog)
{
	for (const struct node *x = prog->dxlators; x; x = x->next) {
		int ptr = x->tyname_ptr;
		const char *out = canon(prog, x->tyname, &ptr);
		const struct node *def = is_sou(out) && !ptr ? sou_def(prog, out) : NULL;

		if (!is_sou(out) || ptr) {
			diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_SOU",
				     "translator output type must be a struct or union");
			continue;
		}
		if (!def) {
			diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_SOU",
				     "incomplete struct/union/enum %s", out);
			continue;
		}
		for (const struct node *o = prog->dxlators; o != x; o = o->next) {
			int op = o->tyname_ptr, ip = x->a->tyname_ptr,
			    oip = o->a->tyname_ptr;
			const char *oout = canon(prog, o->tyname, &op);
			const char *in = canon(prog, x->a->tyname, &ip);
			const char *oin = canon(prog, o->a->tyname, &oip);

			if (!strcmp(oout, out) && !strcmp(in, oin) && ip == oip)
				diag_error_d(&c->diag, x->loc, E_SCOPE, "D_XLATE_REDECL",
					     "translator from %s%s%.*s to %s has already been declared",
					     x->a->tyname, x->a->tyname_ptr ? " " : "",
					     x->a->tyname_ptr, "********",
					     x->tyname);
		}
		check_members(c, prog, x, def);
	}
}

/* The type E has, when the script says it: a cast's, a declared
 * variable's, curthread's; *PTR its stars; NULL when unknown. */
static const char *input_type(const struct program *prog, const struct node *e,
			      int *ptr)
{
	const struct node *v;

	*ptr = 0;
	if (e->kind == N_CAST && e->tyname && !e->tydim) {
		*ptr = e->tyname_ptr;
		return canon(prog, e->tyname, ptr);
	}
	if (e->kind == N_BUILTIN && !strcmp(e->name, "curthread")) {
		*ptr = 1;
		return "struct task_struct";
	}
	if (e->kind == N_UNOP && e->op == T_AMP &&
	    (v = e->a->kind == N_BUILTIN ? ast_dvar(prog, e->a->name) : NULL) &&
	    !v->nargs && v->tyname) {
		*ptr = v->tyname_ptr + 1;
		return canon(prog, v->tyname, ptr);
	}
	if (e->kind == N_BUILTIN && (v = ast_dvar(prog, e->name)) &&
	    !v->nargs && !(v->ival & DV_ASSOC) && v->tyname) {
		*ptr = v->tyname_ptr;
		return canon(prog, v->tyname, ptr);
	}
	return NULL;
}

/* The translator to TYNAME (no stars: the xlate's pointer is its
 * result's) for input E: the one whose input type is E's, else, when
 * E's type is unknown, the first; NULL, reported, when none. */
static const struct node *find(struct compiler *c, const struct program *prog,
			       const struct node *x, const struct node *e)
{
	const struct node *found = NULL;
	int ptr = 0, eptr;
	const char *out = canon(prog, x->tyname, &ptr);
	const char *ein = input_type(prog, e, &eptr);

	for (const struct node *t = prog->dxlators; t; t = t->next) {
		int xp = t->tyname_ptr, b = t->a->tyname_ptr;

		if (strcmp(canon(prog, t->tyname, &xp), out) || xp)
			continue;
		if (ein && !strcmp(ein, canon(prog, t->a->tyname, &b)) && eptr == b)
			return t;
		found = found ? found : t;
	}
	if (found && !ein)
		return found;
	if (ein)
		diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_NONE",
			     "cannot translate from \"%s%s%.*s\" to \"%s\"",
			     ein, eptr ? " " : "", eptr, "********", x->tyname);
	else
		diag_error_d(&c->diag, x->loc, E_TYPE, "D_XLATE_NONE",
			     "No translator available to translate to %s",
			     x->tyname);
	return NULL;
}

/* A copy of N with the identifier NAME (of type TY) made IN's copy,
 * and a cast of NAME to TY too. */
static struct node *subst(struct arena *a, const struct node *n,
			  const char *name, const struct node *ty,
			  const struct node *in)
{
	long made = 0;
	struct node *c;

	if (!n)
		return NULL;
	if (n->kind == N_BUILTIN && n->name && !strcmp(n->name, name))
		return ast_clone(a, in, &made);
	if (n->kind == N_CAST && n->a && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, name) && n->tyname && ty->tyname &&
	    !strcmp(n->tyname, ty->tyname) && n->tyname_ptr == ty->tyname_ptr)
		return ast_clone(a, in, &made);
	c = arena_alloc(a, sizeof(*c));
	*c = *n;
	c->a = subst(a, n->a, name, ty, in);
	c->b = subst(a, n->b, name, ty, in);
	c->c = subst(a, n->c, name, ty, in);
	if (n->nargs) {
		c->args = arena_alloc(a, sizeof(*c->args) * (size_t)n->nargs);
		for (int i = 0; i < n->nargs; i++)
			c->args[i] = subst(a, n->args[i], name, ty, in);
	}
	return c;
}

struct node *d_xlate_field(struct compiler *c, struct program *prog,
			   struct node *f)
{
	struct node *x = f->a, *in, *v;
	const struct node *t, *def, *m = NULL;
	const char *out;
	int ptr, mp = 0;

	if (!x || x->kind != N_CALL || strcmp(x->name, "xlate") || !x->tyname)
		return NULL;
	t = find(c, prog, x, x->args[0]);
	if (!t)
		return f;
	if ((f->op == T_ARROW) != (x->tyname_ptr == 1)) {
		diag_error_d(&c->diag, f->loc, E_TYPE,
			     f->op == T_ARROW ? "D_OP_PTR" : "D_OP_SOU",
			     "operator %s cannot be applied to the translation of %s%s",
			     f->op == T_ARROW ? "->" : ".", x->tyname,
			     x->tyname_ptr ? " *" : "");
		return f;
	}
	ptr = 0;
	out = canon(prog, t->tyname, &ptr);
	def = sou_def(prog, out);
	for (int i = 0; i < t->nargs && !m; i++)
		if (!strcmp(t->args[i]->name, f->name))
			m = t->args[i];
	if (!m) {
		diag_error_d(&c->diag, f->loc, E_TYPE, "D_XLATE_MEMB",
			     def && !member_of(def, f->name) ?
			     "%s is not a member of %s" :
			     "translator member %s is not defined by the translator to %s",
			     f->name, x->tyname);
		return f;
	}
	mp = t->a->tyname_ptr;
	if (!mp && is_sou(canon(prog, t->a->tyname, &mp))) {
		in = x->args[0];	/* a struct, by value: as it is */
	} else {
		in = arena_alloc(&c->arena, sizeof(*in));
		*in = *t->a;
		in->loc = x->args[0]->loc;
		in->a = x->args[0];
	}
	mp = 0;
	v = subst(&c->arena, m->b, t->name, t->a, in);
	/* the member's type: an integer or pointer member is cast to
	 * it; an array (char pr_fname[16]) or struct one is as given */
	if (def && (m = member_of(def, f->name)) && !m->nargs &&
	    (m->tyname_ptr || !is_sou(canon(prog, m->tyname, &mp)))) {
		struct node *cast = arena_alloc(&c->arena, sizeof(*cast));

		memset(cast, 0, sizeof(*cast));
		cast->kind = N_CAST;
		cast->loc = f->loc;
		cast->tyname = m->tyname;
		cast->tyname_ptr = m->tyname_ptr;
		cast->a = v;
		v = cast;
	}
	return v;
}

struct node *d_xlate_assign(struct compiler *c, struct program *prog,
			    struct node *n)
{
	struct node *x = n->b, *b;
	const struct node *t, *def;
	int ptr = 0;

	if (n->op != T_ASSIGN || !x || x->kind != N_CALL ||
	    strcmp(x->name, "xlate") || !x->tyname || x->tyname_ptr)
		return NULL;
	t = find(c, prog, x, x->args[0]);
	def = t ? sou_def(prog, canon(prog, t->tyname, &ptr)) : NULL;
	if (!def)
		return NULL;
	b = arena_alloc(&c->arena, sizeof(*b));
	memset(b, 0, sizeof(*b));
	b->kind = N_BLOCK;
	b->loc = n->loc;
	b->args = arena_alloc(&c->arena, sizeof(*b->args) * (size_t)def->nargs);
	for (int i = 0; i < def->nargs; i++) {
		const struct node *m = def->args[i];
		struct node *a, *to, *from;
		bool given = false;
		long made = 0;

		for (int k = 0; m->name && k < t->nargs && !given; k++)
			given = !strcmp(t->args[k]->name, m->name);
		/* an untranslated member is 0; one that is an array or a
		 * struct keeps what it held */
		if (!m->name || (!given && (m->nargs || is_sou(m->tyname))))
			continue;
		to = arena_alloc(&c->arena, sizeof(*to));
		memset(to, 0, sizeof(*to));
		to->kind = N_FIELD;
		to->op = T_DOT;
		to->loc = n->loc;
		to->name = m->name;
		to->a = ast_clone(&c->arena, n->a, &made);
		from = arena_alloc(&c->arena, sizeof(*from));
		*from = *to;
		if (given) {
			from->a = ast_clone(&c->arena, x, &made);
		} else {
			from->kind = N_INT;
			from->a = NULL;
			from->name = NULL;
			from->ival = 0;
		}
		a = arena_alloc(&c->arena, sizeof(*a));
		*a = *n;
		a->a = to;
		a->b = from;
		b->args[b->nargs++] = a;
	}
	return b;
}

struct node *d_subst(struct compiler *c, const struct node *n,
		     struct node *const *names, struct node *const *vals, int k)
{
	long made = 0;
	struct node *r;

	if (!n)
		return NULL;
	for (int i = 0; i < k; i++)
		if (n->kind == N_BUILTIN && n->name && !strcmp(n->name, names[i]->name))
			return ast_clone(&c->arena, vals[i], &made);
	r = arena_alloc(&c->arena, sizeof(*r));
	*r = *n;
	r->a = d_subst(c, n->a, names, vals, k);
	r->b = d_subst(c, n->b, names, vals, k);
	r->c = d_subst(c, n->c, names, vals, k);
	if (n->nargs) {
		r->args = arena_alloc(&c->arena, sizeof(*r->args) * (size_t)n->nargs);
		for (int i = 0; i < n->nargs; i++)
			r->args[i] = d_subst(c, n->args[i], names, vals, k);
	}
	return r;
}
