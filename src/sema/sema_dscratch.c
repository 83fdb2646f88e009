/* sema_dscratch.c - D's scratch memory (docs/d-language.md, "Scratch
 * memory"): alloca(n) (lang/dlower.c's $alloca), a kernel pointer to n
 * bytes of the clause's scratch; bcopy(src, dest, n) ($bcopy), n bytes
 * copied into it; and stores through pointers, `*p = v`, `p[i] = v`,
 * `p->m = v`, which bpf/cg_dscratch.c makes only where alloca() gave
 * memory (anywhere else is a fault, DTrace's invalid address). */
#include "sema/sema.h"
#include "sema/sema_int.h"
#include "lang/lex.h"
#include <string.h>

static bool int_arg(struct sema *s, struct node *n, int i, const char *proto)
{
	struct type *t = sema_expr(s, n->args[i]);

	if (is_err(t))
		return false;
	if (!is_int(t) && !(strcmp(proto, "size_t") && t->kind == TY_PTR)) {
		sema_d_proto_arg(s, n, i, proto);
		return false;
	}
	return true;
}

struct type *sema_d_kptr(struct sema *s, const struct type *t)
{
	struct type *p = arena_alloc(&s->c->arena, sizeof(*p));

	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = t && (t->kind == TY_INT || t->kind == TY_STRUCT ||
			   t->kind == TY_PTR) ? (struct type *)t : NULL;
	p->kernel = true;
	return p;
}

struct type *call_dalloca(struct sema *s, struct node *n)
{
	s->c->d_alloca = true;
	if (!int_arg(s, n, 0, "size_t"))
		return set(n, &ty_error);
	if (n->args[0]->is_const && (uint64_t)n->args[0]->cval >
	    (uint64_t)s->c->dt_scratchsize)
		DERR(s, n->loc, E_ARGS, "D_ALLOCA_SIZE",
		     "alloca(%llu) size larger than scratchsize %lld",
		     (unsigned long long)n->args[0]->cval,
		     (long long)s->c->dt_scratchsize);
	return set(n, sema_d_kptr(s, NULL));	/* scratch is the kernel's */
}

struct type *call_dbcopy(struct sema *s, struct node *n)
{
	struct type *t;

	s->c->d_alloca = true;
	t = sema_expr(s, n->args[0]);
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t) && t->kind != TY_PTR && t->kind != TY_STR) {
		sema_d_proto_arg(s, n, 0, "void *");
		return set(n, &ty_error);
	}
	if (!int_arg(s, n, 1, "void *") || !int_arg(s, n, 2, "size_t"))
		return set(n, &ty_error);
	return set(n, &ty_void);
}

/* copyin(addr, n): a pointer to n bytes of scratch holding the
 * process's memory at addr; copyinto(addr, n, dest): those bytes into
 * dest, scratch alloca() gave. */
struct type *call_dcopyin(struct sema *s, struct node *n)
{
	bool into = n->builtin == F_DCOPYINTO;

	s->c->d_alloca = true;
	if (!int_arg(s, n, 0, "uintptr_t") || !int_arg(s, n, 1, "size_t") ||
	    (into && !int_arg(s, n, 2, "void *")))
		return set(n, &ty_error);
	if (!into && n->args[1]->is_const && (uint64_t)n->args[1]->cval >
	    (uint64_t)s->c->dt_scratchsize)
		DERR(s, n->loc, E_ARGS, "D_ALLOCA_SIZE",
		     "copyin(%llu) size larger than scratchsize %lld",
		     (unsigned long long)n->args[1]->cval,
		     (long long)s->c->dt_scratchsize);
	return set(n, into ? &ty_void : sema_d_kptr(s, NULL));
}

/* Is N a place reached through a pointer: *p, p[i] of a pointer p,
 * p->m (and members of it, p->s.m)? */
bool sema_d_through_pointer(const struct node *n)
{
	while (n->kind == N_FIELD && n->op == T_DOT)	/* p->s.u.m */
		n = n->a;
	if (n->kind == N_UNOP && n->op == T_STAR)
		return true;
	if (n->kind == N_FIELD && n->op == T_ARROW)
		return true;
	return n->kind == N_INDEX && n->a->ty && n->a->ty->kind == TY_PTR;
}

bool sema_d_pointer_store(struct sema *s, struct node *n, struct type *u)
{
	struct node *r = n->a;
	struct type *t;

	if (!(r->kind == N_UNOP && r->op == T_STAR) && r->kind != N_FIELD &&
	    r->kind != N_INDEX)
		return false;
	t = sema_expr(s, r);
	if (is_err(t) || is_err(u))
		return true;
	if (!sema_d_through_pointer(r))
		return false;
	if (r->kind == N_FIELD && r->fbits) {
		DERR(s, r->loc, E_TYPE, "D_OP_LVAL",
		     "a bit-field reached through a pointer cannot be stored");
		return true;
	}
	if ((t->kind != TY_INT && t->kind != TY_PTR) ||
	    (!is_int(u) && u->kind != TY_PTR)) {
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operands have incompatible types: \"%s\" = \"%s\"",
		     sema_d_type_name(t), sema_d_type_name(u));
		return true;
	}
	if (n->op != T_ASSIGN) {
		DERR(s, n->loc, E_TYPE, "D_OP_LVAL",
		     "operator %s cannot store through a pointer: write p[i] = p[i] + v",
		     tok_spelling(n->op));
		return true;
	}
	s->c->d_alloca = true;
	n->dname = "pstore";
	return true;
}

struct type *sema_d_place_addr(struct sema *s, struct node *n, struct type *t)
{
	const struct node *r = n->a;
	struct type *p = sema_d_kptr(s, t);

	while (r->kind == N_FIELD && r->op == T_DOT)
		r = r->a;
	/* the memory of the pointer it goes through */
	if (r->a->ty && r->a->ty->kind == TY_PTR) {
		p->kernel = r->a->ty->kernel;
		p->user = r->a->ty->user;
	}
	n->dname = "paddr";
	return set(n, p);
}

struct type *call_dpsargs(struct sema *s, struct node *n)
{
	if (!int_arg(s, n, 0, "uintptr_t") || !int_arg(s, n, 1, "uintptr_t"))
		return set(n, &ty_error);
	return set(n, ty_str(&s->c->arena, 80));
}
