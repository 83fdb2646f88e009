/* sema_dproto.c - D's function prototypes where sonde's checks would
 * word an error another way: an argument of the wrong type is
 * D_PROTO_ARG ("exit( ) argument #1 is incompatible with prototype:"
 * then the prototype and the argument's D type), and DTrace's
 * subroutines that sonde does not offer (chill, panic, copyout, ...)
 * are checked against their prototypes before sonde says they are not
 * available, so that a script learns first what DTrace would tell it.
 * D only; part of sema. */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <string.h>

/* DTrace's subroutines that sonde's D lacks, with their prototypes and
 * why. */
static const struct dproto {
	const char *name;
	int lo, hi;
	const char *args[3];
	const char *why;
} missing[] = {
	{ "chill", 1, 1, { "int" },
	  "a BPF program cannot spin the CPU" },
	{ "breakpoint", 0, 0, { NULL }, "Linux has no kernel debugger trap for BPF" },
	{ "panic", 0, 0, { NULL }, "BPF cannot panic the kernel" },
	{ "stop", 0, 0, { NULL }, "use raise(SIGSTOP)" },
	{ "copyout", 3, 3, { "void *", "uintptr_t", "size_t" },
	  "BPF writes user memory only with bpf_probe_write_user, which sonde does not use" },
	{ "copyoutstr", 3, 3, { "char *", "uintptr_t", "size_t" },
	  "BPF writes user memory only with bpf_probe_write_user, which sonde does not use" },
};

/* Whether a value of type T fits prototype P. */
static bool fits(const char *p, const struct type *t)
{
	if (!strcmp(p, "char *") || !strcmp(p, "string"))
		return t->kind == TY_STR || t->kind == TY_ARRAY;
	if (!strcmp(p, "void *"))
		return is_int(t) || t->kind == TY_PTR;
	return is_int(t);
}

void sema_d_proto_arg(struct sema *s, struct node *n, int i, const char *proto)
{
	struct node *a = n->args[i];

	DERR(s, a->loc, E_TYPE, "D_PROTO_ARG",
	     "%s( ) argument #%d is incompatible with prototype:\n"
	     "\tprototype: %s\n\t argument: %s",
	     n->dname ? n->dname : n->name, i + 1, proto,
	     a->ty ? sema_d_type_name(a->ty) : "void");
}

void sema_d_not_lvalue(struct sema *s, struct node *x, const char *op)
{
	/* pid = 1: a built-in variable; $pid++, 1 = 2: no variable */
	if (x->kind == N_BUILTIN)
		DERR(s, x->loc, E_TYPE, "D_OP_WRITE",
		     "operator %s can only be applied to a writable variable", op);
	else
		DERR(s, x->loc, E_TYPE, "D_OP_LVAL",
		     "operator %s requires modifiable lvalue as an operand", op);
}

bool sema_d_known_missing(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(missing); i++)
		if (!strcmp(missing[i].name, name))
			return true;
	return false;
}

bool sema_d_missing(struct sema *s, struct node *n)
{
	const struct dproto *d = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(missing); i++)
		if (!strcmp(missing[i].name, n->name))
			d = &missing[i];
	if (!d)
		return false;
	if (n->nargs < d->lo || n->nargs > d->hi) {
		DERR(s, n->loc, E_ARGS, "D_PROTO_LEN",
		     "%s( ) prototype mismatch: %d arg%s passed, %d expected",
		     n->name, n->nargs, n->nargs == 1 ? "" : "s",
		     n->nargs < d->lo ? d->lo : d->hi);
		return true;
	}
	for (int i = 0; i < n->nargs; i++) {
		struct type *t = sema_expr(s, n->args[i]);

		if (is_err(t))
			return true;
		if (!fits(d->args[i], t)) {
			sema_d_proto_arg(s, n, i, d->args[i]);
			return true;
		}
	}
	DERR(s, n->loc, E_FUNC, "D_FUNC_UNDEF",
	     "%s( ) is not available in sonde's D: %s", n->name, d->why);
	return true;
}
