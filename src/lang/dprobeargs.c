/* dprobeargs.c - what a D probe gives, lowered (lang/dlower.c): the
 * argN words of syscall and profile probes, args[] of proc, sched, io
 * and syscall probes, uregs[], probeprov of a process's providers, and
 * the condition a probe fires under where its tracepoint fires more
 * often (proc:::exec-failure, proc:::exit). */
#include <string.h>

#include "lang/dlower_int.h"
#include "lang/dprobe.h"
#include "lang/lex.h"

/* argN of a syscall probe: the Nth argument word of the tracepoint's
 * record (after the common fields and the syscall number), or the
 * return value. */
void dl_syscall_arg(struct lower *lw, struct node *n, int i)
{
	struct node *ctx = dl_mk(lw, N_BUILTIN, n->loc);
	struct node *off = dl_mk(lw, N_INT, n->loc);
	struct node *add = dl_mk(lw, N_BINOP, n->loc);
	struct node *cast = dl_mk(lw, N_CAST, n->loc);
	struct node *kp = dl_mk(lw, N_CALL, n->loc);

	ctx->name = "ctx";
	off->ival = (uint64_t)(16 + 8 * (lw->ret ? 0 : i));
	add->op = T_PLUS;
	add->a = ctx;
	add->b = off;
	cast->tyname = "int64";
	cast->tyname_ptr = 1;
	cast->a = add;
	/* the record is the kernel's, whatever the syscall's pointers */
	kp->name = "kptr";
	kp->args = arena_alloc(&lw->c->arena, sizeof(*kp->args));
	kp->args[0] = cast;
	kp->nargs = 1;
	n->kind = N_UNOP;
	n->op = T_STAR;
	n->name = NULL;
	n->a = kp;
}

/* arg0 and arg1 of profile and tick probes: the kernel's and the
 * process's program counter, each 0 when the CPU was in the other. */
void dl_profile_arg(struct lower *lw, struct node *n, int i)
{
	struct node *um = dl_mk(lw, N_BUILTIN, n->loc);
	struct node *pc = dl_mk(lw, N_CALL, n->loc);
	struct node *ip = dl_mk(lw, N_STR, n->loc);
	struct node *zero = dl_mk(lw, N_INT, n->loc);

	um->name = "usermode";
	ip->name = "ip";
	ip->len = 2;
	pc->name = "reg";
	pc->args = arena_alloc(&lw->c->arena, sizeof(*pc->args));
	pc->args[0] = ip;
	pc->nargs = 1;
	n->kind = N_TERNARY;
	n->name = NULL;
	n->a = um;
	n->b = i ? pc : zero;
	n->c = i ? zero : pc;
}


/* Are clause P's probes all in a process's files (pid, USDT)? */
bool dl_user_clause(const struct node *p)
{
	for (int i = 0; p && i < p->nargs; i++)
		if (strncmp(p->args[i]->name, "uprobe:", 7) &&
		    strncmp(p->args[i]->name, "uretprobe:", 10) &&
		    strncmp(p->args[i]->name, "usdt:", 5))
			return false;
	return p && p->nargs;
}

/* probeprov of a pid or USDT probe: the provider and the process's id,
 * as dtrace names them (pid1234, myprov1234): strjoin(probeprov,
 * lltostr(pid)) in sonde's words. */
void dl_provider_pid(struct lower *lw, struct node *n)
{
	struct node *prov = dl_mk(lw, N_BUILTIN, n->loc);
	struct node *pid = dl_mk(lw, N_BUILTIN, n->loc);
	struct node *str = dl_mk(lw, N_CALL, n->loc);

	prov->name = "probeprov";
	pid->name = "pid";
	str->name = "lltostr";
	str->args = arena_alloc(&lw->c->arena, sizeof(*str->args));
	str->args[0] = pid;
	str->nargs = 1;
	n->kind = N_CALL;
	n->name = "strjoin";
	n->args = arena_alloc(&lw->c->arena, sizeof(*n->args) * 2);
	n->args[0] = prov;
	n->args[1] = str;
	n->nargs = 2;
}


/* args[K] (N) of a proc or sched probe: the D library's inline for it
 * (__d_args_proc_create_0, a translation of the task the raw
 * tracepoint gives), N itself when it is not one; D_ARGS_IDX past
 * the probe's arguments. */
struct node *dl_proc_args(struct lower *lw, struct node *n)
{
	const char *name;
	struct node *k;

	/* parse.c reads args[0] as a map's element (D's arrays) */
	if (n->kind != N_MAP || strcmp(n->name, "args") || n->nargs != 1 ||
	    !lw->prov || !lw->pname ||
	    (strcmp(lw->prov, "proc") && strcmp(lw->prov, "sched") &&
	     strcmp(lw->prov, "io") && strcmp(lw->prov, "syscall") &&
	     strcmp(lw->prov, "dtrace")))
		return n;
	k = n->args[0];
	if (k->kind == N_STR) {
		diag_error_d(&lw->c->diag, k->loc, E_TYPE, "D_PROTO_ARG",
			     "args[ ] argument #1 is incompatible with prototype:\n"
			     "\tprototype: int\n\t argument: string");
		return n;
	}
	if (k->kind != N_INT) {
		diag_error_d(&lw->c->diag, k->loc, E_TYPE, "D_ARGS_IDX",
			     "index of args[ ] must be an integer constant");
		return n;
	}
	if (!strcmp(lw->prov, "syscall")) {
		/* the tracepoint's field of the argument (its "#K") */
		struct node *f = dl_mk(lw, N_FIELD, n->loc);

		f->op = T_DOT;
		f->a = dl_mk(lw, N_BUILTIN, n->loc);
		f->a->name = "args";
		f->name = arena_printf(&lw->c->arena, "#%llu",
				       (unsigned long long)k->ival);
		return f;
	}
	name = arena_printf(&lw->c->arena, "__d_args_%s_%s_%llu", lw->prov,
			    lw->pname, (unsigned long long)k->ival);
	for (char *p = (char *)name; *p; p++)
		if (*p == '-')
			*p = '_';
	for (struct node *x = lw->prog->dinlines; x; x = x->next)
		if (!strcmp(x->name, name)) {
			struct node *b = dl_mk(lw, N_BUILTIN, n->loc);

			b->name = name;
			return b;
		}
	diag_error_d(&lw->c->diag, n->loc, E_TYPE, "D_ARGS_IDX",
		     "index %llu is out of range for %s:::%s args[ ]",
		     (unsigned long long)k->ival, lw->prov, lw->pname);
	return n;
}


/* The clause P fires only when its probes' condition holds (D's
 * library's __d_when_PROV_NAME: an exec that failed, a process's last
 * thread), when every probe of it has the same one: its predicate
 * gets it first. */
void dl_probe_condition(struct lower *lw, struct node *p)
{
	const char *when = NULL;

	for (int i = 0; i < p->nargs; i++) {
		const char *d = p->args[i]->tyname ? p->args[i]->tyname : "";
		const char *name = arena_printf(&lw->c->arena, "__d_when_%s_%s",
						d_probe_field(&lw->c->arena, d, p->args[i]->name, 0),
						d_probe_field(&lw->c->arena, d, p->args[i]->name, 3));
		bool found = false;

		for (char *c = (char *)name; *c; c++)
			if (*c == '-')
				*c = '_';
		for (struct node *x = lw->prog->dinlines; x; x = x->next)
			found |= !strcmp(x->name, name);
		if (!found || (when && strcmp(when, name)))
			return;
		when = name;
	}
	if (when) {
		struct node *w = dl_word(lw, N_BUILTIN, when, p->loc);

		if (p->a) {
			struct node *both = dl_mk(lw, N_LAND, p->loc);

			both->a = w;
			both->b = p->a;
			w = both;
		}
		p->a = w;
	}
}

/* A constant integer expression's value into *V (ints, + - * and
 * unary -, as D's library's inlines are written); false otherwise. */
static bool const_value(const struct node *n, int64_t *v)
{
	int64_t a, b;

	if (n->kind == N_INT) {
		*v = (int64_t)n->ival;
		return true;
	}
	if (n->kind == N_UNOP && n->op == T_MINUS && const_value(n->a, &a)) {
		*v = -a;
		return true;
	}
	if (n->kind != N_BINOP || !const_value(n->a, &a) || !const_value(n->b, &b))
		return false;
	switch (n->op) {
	case T_PLUS: *v = a + b; return true;
	case T_MINUS: *v = a - b; return true;
	case T_STAR: *v = a * b; return true;
	default: return false;
	}
}

/* uregs[R_x] (N): the thread's user register (sonde's reg("name") of a
 * pid or USDT probe's registers, the user's); a register pt_regs does
 * not keep (ds, es, fs, gs, trapno) reads as 0. */
struct node *dl_uregs(struct lower *lw, struct node *n)
{
	/* pt_regs' order (R_R15 0 .. R_SS 20), then the 32-bit names */
	static const char *const names[] = {
		"r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9",
		"r8", "ax", "cx", "dx", "si", "di", NULL, "ip", NULL, "flags",
		"sp", NULL, NULL, NULL, NULL, NULL, "bx", "cx", "dx", "si",
		"di", "bp", "ax", NULL, NULL, NULL, NULL, NULL, "ip", NULL,
		"flags", "sp",
	};
	struct node *k, *r;
	int64_t v;

	k = dl_lower(lw, n->args[0]);
	if (!const_value(k, &v) || v < 0 ||
	    v >= (int64_t)(sizeof(names) / sizeof(names[0]))) {
		diag_error_d(&lw->c->diag, k->loc, E_ARGS, "D_ARGS_IDX",
			     "index of uregs[ ] must be a register's constant, such as R_PC");
		return n;
	}
	if (!names[v]) {
		r = dl_mk(lw, N_INT, n->loc);
		r->ival = 0;
		return r;
	}
	r = dl_mk(lw, N_CALL, n->loc);
	r->name = "reg";
	r->args = arena_alloc(&lw->c->arena, sizeof(*r->args));
	r->args[0] = dl_word(lw, N_STR, names[v], n->loc);
	r->nargs = 1;
	return r;
}

