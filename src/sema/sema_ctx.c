/* sema_ctx.c - what a probe's context offers, typed for every probe of
 * a block at once: the builtins (pid, comm, probe, func, retval,
 * kstack ...), argN and args.NAME as each kind's context holds them
 * (enum probe_ctx: registers, usdt operands, tracepoint fields, BTF
 * arguments), ctx in iterators, and members of kernel structs. */
#include "sema/sema_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/btf.h"
#include "catalog/dwarf.h"
#include "catalog/tracefs.h"
#include "catalog/usdt.h"
#include "lang/dprobe.h"
#include "sema/cdecl.h"

static struct type *ret_type(struct sema *s);
static void no_dwarf(struct sema *s, struct loc at, struct probe_spec *ps,
		     int rc);

static const struct {
	const char *name;
	int ty;
} builtins[] = {
#define X(e, name, ty) { name, 0 },
#include "sema/builtins.def"
#undef X
};

const char *builtin_name(int b)
{
	return (unsigned)b < B_NBUILTINS ? builtins[b].name : "?";
}

static int builtin_find(const char *name)
{
	static int order[B_NBUILTINS];
	static struct name_index ix = {
		builtins, sizeof(builtins[0]), B_NBUILTINS, order, false
	};

	return name_index_find(&ix, name);
}

bool sema_is_builtin(const char *name)
{
	return builtin_find(name) >= 0;
}

/* argK of usdt probe PS: an operand the note has and sonde can read. */
static bool usdt_arg_ok(struct sema *s, struct node *n,
			const struct probe_spec *ps, int k)
{
	const struct usdt_arg *a = &ps->uargs[k];

	if (k >= ps->nuargs) {
		if (ps->nuargs)
			ERR(s, n->loc, E_CONTEXT, "%s has %d argument%s (arg0..arg%d)",
			    ps->name, ps->nuargs, ps->nuargs == 1 ? "" : "s",
			    ps->nuargs - 1);
		else
			ERR(s, n->loc, E_CONTEXT, "%s has no arguments", ps->name);
		return false;
	}
	if (a->loc == USDT_BAD) {
		ERR(s, n->loc, E_CONTEXT, "%s: arg%d is '%.*s': %s", ps->name, k,
		    a->text_len, ps->usdt_args + a->text_off, a->err);
		return false;
	}
	return true;
}

/* The builtin variable I (builtins.def) for every probe of the block. */
/* Today's bpftrace: is the block only BEGIN and END probes, which run
 * for user space (in bpftrace 0.26, as uprobes on itself)? */
static bool begin_end_only(struct sema *s)
{
	if (s->c->dialect_017 || !s->pi->nspecs)
		return false;
	for (int k = 0; k < s->pi->nspecs; k++)
		if (s->pi->specs[k].ops->stage != STAGE_BEGIN &&
		    s->pi->specs[k].ops->stage != STAGE_END)
			return false;
	return true;
}

/* curtask: a struct task_struct * where the script defines one or the
 * kernel has BTF (as in bpftrace), else an integer. */
static struct type *curtask_type(struct sema *s)
{
	struct type *st, *t;

	/* the script's own struct task_struct first, as in bpftrace */
	st = cdecl_lookup(s->c, "struct task_struct");
	if (!st && (!btf_available(s->c) ||
		    !(st = btf_type_by_name(s->c, "struct task_struct"))))
		return &ty_u64;
	t = arena_alloc(&s->c->arena, sizeof(*t));
	t->kind = TY_PTR;
	t->size = 8;
	t->pointee = st;
	return t;
}

/* D's timestamp is the same everywhere in a firing: one hidden
 * variable of the probe holds it once read. */
static struct var *d_timestamp(struct sema *s, struct node *n)
{
	static const char name[] = "$__timestamp";
	struct var *v = strmap_get(&s->pi->var_names, name);
	struct node *t;

	if (v)
		return v;
	t = arena_alloc(&s->c->arena, sizeof(*t));
	t->kind = N_VAR;
	t->name = name;
	t->loc = n->loc;
	return sema_var_new(s, t, &ty_u64);
}

static struct type *named(struct sema *s, struct node *n, int i)
{
	int len = 1;

	n->builtin = i;
	if (s->c->restricted && (i == B_CURTASK || i == B_KSTACK)) {
		ERR(s, n->loc, E_POLICY,
		    "%s is the kernel's memory: sonde serve does not give it to this user",
		    n->name);
		return set(n, &ty_error);
	}
	switch (i) {
	case B_COMM:
		return set(n, str_type(s, 16));
	case B_PROBE:
		s->pi->per_name = true;
		return set(n, str_type(s, s->pi->name_max));
	case B_CPID:
		/* today's bpftrace: 0 without -c (has_cpid tells) */
		if (!s->c->has_command && !s->c->dialect_017) {
			n->is_const = 1;
			n->cval = 0;
		} else if (!s->c->has_command) {
			ERR(s, n->loc, E_CONTEXT,
			    "cpid needs a command to run: sonde -c 'CMD'");
			return set(n, &ty_error);
		}
		return set(n, &ty_u32);
	case B_KSTACK: case B_USTACK:
		return sema_stack(s, n, i == B_USTACK);
	case B_RETVAL:
		if (!sema_all_probes(s, n, PF_RETVAL))
			return set(n, &ty_error);
		return set(n, ret_type(s));
	case B_FUNC:
		s->pi->per_name = true;
		if (!sema_all_probes(s, n, PF_FUNC))
			return set(n, &ty_error);
		for (int k = 0; k < s->pi->nspecs; k++) {
			int l = (int)strlen(s->pi->specs[k].func) + 1;

			if (l > len)
				len = l;
		}
		return set(n, str_type(s, len));
	case B_PROBEID:
		s->pi->per_name = true;
		return set(n, &ty_u64);
	case B_PROBEPROV: case B_PROBEMOD: case B_PROBEFUNC: case B_PROBENAME:
	case B_PROBEFN:
		s->pi->per_name = true;
		for (int k = 0; k < s->pi->nspecs; k++) {
			struct probe_spec *ps = &s->pi->specs[k];
			int l = (int)strlen(probe_d_field(&s->c->arena, ps,
							  i - B_PROBEPROV)) + 1;

			if (l > len)
				len = l;
		}
		return set(n, str_type(s, len));
	case B_PROBETYPE:
		for (int k = 0; k < s->pi->nspecs; k++) {
			int l = (int)strlen(probe_type_name(&s->pi->specs[k])) + 1;

			if (l > len)
				len = l;
		}
		return set(n, str_type(s, len));
	case B_USERMODE:
		if (begin_end_only(s)) {	/* 1: user space runs them */
			n->is_const = 1;
			n->cval = 1;
			return set(n, &ty_u8);
		}
		for (int k = 0; k < s->pi->nspecs; k++) {
			enum probe_ctx x = s->pi->specs[k].ops->ctx;

			if (x != CTX_PERF && x != CTX_REGS && x != CTX_USDT) {
				ERR(s, n->loc, E_CONTEXT,
				    "'usermode' is not available in %s probes: it needs their registers",
				    s->pi->specs[k].name);
				return set(n, &ty_error);
			}
		}
		return set(n, &ty_u8);
	case B_NSECS:
		if (s->c->lang_d && !n->ival)
			n->var = d_timestamp(s, n);
		return set(n, &ty_u64);
	case B_PID: case B_TID: case B_CPU:
		/* D's pid_t, id_t and processorid_t are ints */
		return set(n, s->c->lang_d ? &ty_s32 : &ty_u32);
	case B_UID: case B_GID:
	case B_RAND: case B_NUMAID: case B_STACKDEPTH: case B_USTACKDEPTH:
		return set(n, &ty_u32);
	case B_USERNAME:
		return set(n, &ty_username);
	case B_CURTASK:
		return set(n, curtask_type(s));
	default:
		return set(n, &ty_u64);
	}
}

/* ctx: the iterator's context, a pointer to its BTF struct; in other
 * probes, as in bpftrace, the context's address (the program's first
 * argument: pt_regs, a perf event's data, a tracepoint's record), to
 * cast to what the script knows it is. */
static struct type *ctx_builtin(struct sema *s, struct node *n)
{
	struct type *ct = NULL;
	int iters = 0;

	for (int i = 0; i < s->pi->nspecs; i++)
		iters += s->pi->specs[i].ops->ctx == CTX_ITER;
	if (!iters) {
		n->builtin = B_CTX;
		return set(n, &ty_u64);
	}
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		struct type *st;

		if (ps->ops->ctx != CTX_ITER) {
			ERR(s, n->loc, E_CONTEXT,
			    "'ctx' is the iterator's context in iter probes and the context's address elsewhere: it cannot be both, in %s and %s",
			    s->pi->specs[0].name, ps->name);
			return set(n, &ty_error);
		}
		if (ct)
			continue;
		st = btf_type_by_name(s->c, ps->ctx_struct);
		if (!st) {
			ERR(s, n->loc, E_TYPE, "%s is not in the kernel's BTF",
			    ps->ctx_struct);
			return set(n, &ty_error);
		}
		ct = arena_alloc(&s->c->arena, sizeof(*ct));
		ct->kind = TY_PTR;
		ct->size = 8;
		ct->pointee = st;
	}
	n->builtin = B_CTX;
	return set(n, ct ? ct : &ty_error);
}

/* argK of probe PS, as its context holds it: false after an error.
 * *SIGNED stays true only for a usdt operand known to be signed. */
static bool arg_of(struct sema *s, struct node *n, struct probe_spec *ps,
		   long k, bool *is_signed)
{
	const char **names;
	struct type **types;
	int id, nargs;

	if (ps->ops->ctx == CTX_USDT) {
		if (!usdt_arg_ok(s, n, ps, (int)k))
			return false;
		*is_signed &= ps->uargs[k].is_signed;
		return true;
	}
	*is_signed = false;
	if (ps->ops->ctx == CTX_REGS && !probe_has(ps, PF_RETVAL)) {
		if (k <= 5)
			return true;
		ERR(s, n->loc, E_CONTEXT, "%s: only arg0..arg5 are in registers",
		    ps->name);
		return false;
	}
	/* fentry:bpf: the saved arguments of the program's function */
	if (ps->ops->ctx == CTX_FUNC && ps->attach_prog_id) {
		if (k < ps->bpf_nargs)
			return true;
		ERR(s, n->loc, E_CONTEXT, "%s has %d argument%s (arg0..arg%d)",
		    ps->name, ps->bpf_nargs, ps->bpf_nargs == 1 ? "" : "s",
		    ps->bpf_nargs - 1);
		return false;
	}
	if (ps->ops->ctx != CTX_RAWTP) {
		ERR(s, n->loc, E_CONTEXT, "'%s' is not available in %s probes",
		    n->name, ps->name);
		return false;
	}
	/* BTF knows how many arguments there are; the kernel takes at
	 * most 12 */
	nargs = btf_tp_args(s->c, ps->target, &names, &types, &id);
	if (nargs < 0)
		nargs = 12;
	if (k < nargs)
		return true;
	ERR(s, n->loc, E_CONTEXT, "%s has %d argument%s (arg0..arg%d)", ps->name,
	    nargs, nargs == 1 ? "" : "s", nargs - 1);
	return false;
}

/* argK for every probe of the block. */
static struct type *arg_builtin(struct sema *s, struct node *n, long k)
{
	bool all_signed = s->pi->nspecs > 0, none = s->c->lang_d;

	/* D: dtrace:::BEGIN and END have no arguments; each reads 0 */
	for (int i = 0; i < s->pi->nspecs; i++)
		none &= s->pi->specs[i].ops->stage == STAGE_BEGIN ||
			s->pi->specs[i].ops->stage == STAGE_END;
	if (none && s->pi->nspecs) {
		n->is_const = 1;
		n->cval = 0;
		return set(n, &ty_s64);
	}
	for (int i = 0; i < s->pi->nspecs; i++)
		if (!arg_of(s, n, &s->pi->specs[i], k, &all_signed))
			return set(n, &ty_error);
	n->builtin = B_ARG;
	n->ival = (uint64_t)k;
	/* a usdt operand's sign is known: bpftrace 0.17 would make -1 an
	 * unsigned 2^64-1 */
	return set(n, all_signed ? &ty_s64 : &ty_u64);
}

/* PREFIX followed by a number below 32 (arg0, sarg3): the number, else
 * -1. */
static long arg_number(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long k;

	if (strncmp(name, prefix, n) || name[n] < '0' || name[n] > '9')
		return -1;
	k = strtol(name + n, &end, 10);
	return !*end && k < 32 ? k : -1;
}

/* sargK: the Kth 8-byte word above the return address, a function's
 * Kth argument on the stack (x86-64), read at a function's entry:
 * kprobe and uprobe, as bpftrace 0.17 allows. */
static struct type *sarg_builtin(struct sema *s, struct node *n, long k)
{
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];

		if (ps->ops->ctx != CTX_REGS || probe_has(ps, PF_RETVAL)) {
			ERR(s, n->loc, E_CONTEXT,
			    "'%s' is only available at a function's entry (kprobe, uprobe), not in %s probes",
			    n->name, ps->name);
			return set(n, &ty_error);
		}
	}
	n->builtin = B_SARG;
	n->ival = (uint64_t)k;
	return set(n, &ty_u64);
}

/* The same members, by name and type, in A and B. */
static bool same_members(const struct type *a, const struct type *b)
{
	if (a->size != b->size || a->nmembers != b->nmembers)
		return false;
	for (int i = 0; i < a->nmembers; i++)
		if (strcmp(a->members[i].name, b->members[i].name) ||
		    !ty_equal(a->members[i].ty, b->members[i].ty))
			return false;
	return true;
}

/* Is PS (a uprobe or uretprobe) at a function's entry, where args are
 * known?  A uretprobe has no args: the registers that held them are
 * gone at the return; nor has FUNC+OFF. */
static bool uprobe_entry(struct sema *s, struct loc at, struct probe_spec *ps)
{
	if (probe_has(ps, PF_RETVAL)) {
		ERR(s, at, E_CONTEXT,
		    "'args' is not available in %s probes: the arguments are gone when a function returns (save them in a uprobe: @a[tid] = args.NAME)",
		    ps->ops->name);
		return false;
	}
	if (ps->func_off) {
		ERR(s, at, E_CONTEXT,
		    "'args' is only known at a function's entry, not at %s+%llu: use reg()",
		    ps->func, (unsigned long long)ps->func_off);
		return false;
	}
	return true;
}

/* args alone in uprobes (later bpftrace versions have it; 0.17 refuses
 * it): a struct value holding the function's parameters by name, laid
 * out as C would lay out a struct of them (the ones sonde cannot read
 * left out), the same in every probe of the block; cg fills it from
 * where each one is. */
static struct type *args_value(struct sema *s, struct node *n)
{
	struct type *st = NULL;

	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		const struct dwarf_func *f;
		struct type *t;
		int off = 0, align = 1, rc;

		if (ps->ops->ctx != CTX_REGS || !probe_has(ps, PF_USER)) {
			ERR(s, n->loc, E_CONTEXT,
			    "'args' is not a value in %s probes: name a field or argument (args.NAME)",
			    ps->ops->name);
			return set(n, &ty_error);
		}
		if (!uprobe_entry(s, n->loc, ps))
			return set(n, &ty_error);
		rc = dwarf_func(s->c, ps->path, ps->func, ps->uvaddr, &f);
		if (rc) {
			no_dwarf(s, n->loc, ps, rc);
			return set(n, &ty_error);
		}
		t = arena_alloc(&s->c->arena, sizeof(*t));
		t->kind = TY_STRUCT;
		t->sname = arena_printf(&s->c->arena, "args of %s", ps->func);
		for (int k = 0; k < f->nparams; k++) {
			const struct dwarf_param *p = &f->params[k];
			struct smember *m;

			if (!p->ty || !p->npieces || !*p->name)
				continue;
			if (!t->nmembers)
				t->members = arena_alloc(&s->c->arena,
					sizeof(*t->members) * (size_t)f->nparams);
			off = ALIGN_UP(off, ty_align(p->ty));
			if (ty_align(p->ty) > align)
				align = ty_align(p->ty);
			m = &t->members[t->nmembers++];
			m->name = p->name;
			m->bitoff = 8 * off;
			m->ty = p->ty;
			off += p->ty->size;
		}
		t->size = ALIGN_UP(off, align);
		t->nelem = align;
		if (st && !same_members(st, t)) {
			ERR(s, n->loc, E_TYPE,
			    "'args' differs between the probes of this block (%s)",
			    ps->name);
			return set(n, &ty_error);
		}
		if (!st)
			st = t;
	}
	if (!st) {
		ERR(s, n->loc, E_CONTEXT, "'args' is not available here");
		return set(n, &ty_error);
	}
	s->pi->per_site = true;
	n->builtin = B_ARGS;
	return set(n, st);
}

/* The argument of pid(), tid() and nsecs(): a bare name, its index
 * in NAMES plus one (n->ival of the builtin), or 0 after an error. */
static int mode_arg(struct sema *s, struct node *n, const char *const *names,
		    int nnames, const char *what)
{
	struct node *a = n->args[0];

	if (a->kind == N_BUILTIN)
		for (int i = 0; i < nnames; i++)
			if (!strcmp(a->name, names[i]))
				return i + 1;
	ERR(s, a->loc, E_ARGS, "%s() takes %s", n->name, what);
	return 0;
}

/* A builtin written as a call, comm() or pid(init): the builtin node
 * itself, with the mode of its argument in ival (0: the default). */
struct type *sema_call_builtin(struct sema *s, struct node *n)
{
	static const char *const ns[] = { "curr_ns", "init" };
	static const char *const clocks[] = { "monotonic", "boot", "tai",
						"sw_tai" };
	int b = builtin_find(n->name), mode = 0;

	if (n->nargs && (b == B_PID || b == B_TID)) {
		if (n->nargs > 1) {
			ERR(s, n->loc, E_ARGS, "%s() takes 0 or 1 arguments, %d given",
			    n->name, n->nargs);
			return set(n, &ty_error);
		}
		mode = mode_arg(s, n, ns, 2, "curr_ns or init");
	} else if (n->nargs && b == B_NSECS) {
		if (n->nargs > 1) {
			ERR(s, n->loc, E_ARGS, "nsecs() takes 0 or 1 arguments, %d given",
			    n->nargs);
			return set(n, &ty_error);
		}
		mode = mode_arg(s, n, clocks, 4,
				"monotonic, boot, tai or sw_tai");
	} else if (n->nargs) {
		ERR(s, n->loc, E_ARGS, "%s() takes no arguments, %d given",
		    n->name, n->nargs);
		return set(n, &ty_error);
	}
	if (n->nargs && !mode)
		return set(n, &ty_error);
	n->kind = N_BUILTIN;
	n->nargs = 0;
	n->args = NULL;
	n->ival = (uint64_t)mode;
	return named(s, n, b);
}

struct type *sema_builtin(struct sema *s, struct node *n)
{
	static const char *const later[] = {
		"args",
		"arg0", "arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7",
		"arg8", "arg9",
	};
	int64_t v;
	long k;
	int b = builtin_find(n->name);

	if (b >= B_PROBEPROV && b <= B_PROBEID && !s->c->lang_d)
		b = -1;		/* D's names, bpftrace's to take */
	if (b >= 0)
		return named(s, n, b);
	if (!strcmp(n->name, "ctx"))
		return ctx_builtin(s, n);
	if (!strcmp(n->name, "args") && s->pi->nspecs &&
	    s->pi->specs[0].ops->ctx == CTX_REGS &&
	    probe_has(&s->pi->specs[0], PF_USER))
		return args_value(s, n);
	k = arg_number(n->name, "arg");
	if (k >= 0)
		return arg_builtin(s, n, k);
	k = arg_number(n->name, "sarg");
	if (k >= 0)
		return sarg_builtin(s, n, k);
	for (size_t i = 0; i < ARRAY_SIZE(later); i++) {
		if (!strcmp(later[i], n->name)) {
			ERR(s, n->loc, E_CONTEXT,
			    "'%s' is not available in %s probes", n->name,
			    s->pi->nspecs ? s->pi->specs[0].name : "these");
			return set(n, &ty_error);
		}
	}
	/* 0.26's boolean literals are bools; bpftrace 0.17's are the
	 * integers 1 and 0 (print(true) shows 1), and there an enum
	 * constant of that name wins. */
	if ((!strcmp(n->name, "true") || !strcmp(n->name, "false")) &&
	    (!s->c->dialect_017 || !cdecl_constant(s->c, n->name, &v))) {
		n->is_const = 1;
		n->cval = n->name[0] == 't';
		return set(n, sema_bool_type(s));
	}
	if (cdecl_constant(s->c, n->name, &v)) {
		n->is_const = 1;
		n->cval = v;
		return set(n, sema_enum_const(s, n->name));
	}
	/* today's bpftrace: a function that takes no argument may be
	 * written without the call, default_str_length as ...() */
	if (!s->c->dialect_017 && sema_func_find(s, n->name) >= 0 &&
	    sema_func_min_args(sema_func_find(s, n->name)) == 0) {
		n->kind = N_CALL;
		n->nargs = 0;
		return sema_call(s, n, false);
	}
	if (sema_func_find(s, n->name) >= 0)
		ERR(s, n->loc, E_IDENT, "'%s' is a function: call it as %s()",
		    n->name, n->name);
	else
		ERR(s, n->loc, E_IDENT, "unknown identifier '%s'", n->name);
	return set(n, &ty_error);
}

/* A pointer field of a tracepoint: a pointer to a struct or union the
 * kernel's BTF knows can be followed with ->; the pointers of the
 * syscalls tracepoints are the system call's own arguments, in the
 * calling process's memory.  Without BTF, or to other types, the field
 * is an unsigned 64-bit integer. */
static struct type *tp_ptr_type(struct sema *s, const struct tp_format *tp,
				const struct tp_field *f)
{
	struct type *target, *p;

	if (strncmp(f->ctype, "struct ", 7) && strncmp(f->ctype, "union ", 6))
		return &ty_u64;
	target = cdecl_type_by_name(s->c, f->ctype);
	if (!target || target->kind != TY_STRUCT)
		return &ty_u64;
	p = arena_alloc(&s->c->arena, sizeof(*p));
	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = target;
	p->user = tp->category && !strcmp(tp->category, "syscalls");
	return p;
}

/* D's args[N] of a system call, a pointer: its C type (char **argv),
 * pointing into the process, as D's syscall provider types it. */
static struct type *syscall_ptr_type(struct sema *s, const struct tp_field *f)
{
	struct type *t = cdecl_type_by_name(s->c, f->ctype);

	if (t && t->kind != TY_INT && t->kind != TY_STRUCT && t->kind != TY_PTR)
		t = NULL;
	for (const char *p = f->decl; *p; p++) {
		struct type *q;

		if (*p != '*')
			continue;
		q = arena_alloc(&s->c->arena, sizeof(*q));
		q->kind = TY_PTR;
		q->size = 8;
		q->pointee = t;
		q->user = true;
		t = q;
	}
	return t && t->kind == TY_PTR ? t : &ty_u64;
}

/* retval: a fexit's BTF return type when every probe of the block
 * agrees on it, else a 64-bit integer (the register). */
static struct type *ret_type(struct sema *s)
{
	struct type *t = NULL;

	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		const char **names;
		struct type **types, *ret = NULL;
		int id;

		if (ps->ops->ctx != CTX_FUNC || ps->attach_prog_id ||
		    btf_func_args(s->c, ps->func, &names, &types, &ret, &id) < 0 ||
		    !ret || (ret->kind != TY_INT && ret->kind != TY_PTR))
			return &ty_u64;
		if (t && !ty_equal(t, ret))
			return &ty_u64;
		t = ret;
	}
	return t ? t : &ty_u64;
}

/* args.NAME of fentry/fexit: the function's BTF-typed parameter; its
 * index goes to cg through the name. */
static struct type *fentry_arg(struct sema *s, struct node *n,
			       struct probe_spec *ps)
{
	const char **names;
	struct type **types, *ret;
	int id, k;

	if (ps->attach_prog_id) {	/* fentry:bpf: argN only, as bpftrace */
		ERR(s, n->loc, E_CONTEXT,
		    "args is not available in %s: read its arguments as arg0, arg1, ...",
		    ps->name);
		return NULL;
	}
	k = btf_func_args(s->c, ps->func, &names, &types, &ret, &id);
	for (int i = 0; i < k; i++) {
		if (strcmp(names[i], n->name))
			continue;
		if (!types[i] || types[i]->kind == TY_VOID ||
		    types[i]->kind == TY_STRUCT || types[i]->kind == TY_STR) {
			ERR(s, n->loc, E_TYPE,
			    "argument '%s' of %s has a type sonde cannot read yet",
			    n->name, ps->func);
			return NULL;
		}
		return types[i];
	}
	ERR(s, n->loc, E_TYPE, "function %s has no argument '%s'", ps->func,
	    n->name);
	return NULL;
}

/* args.NAME of a raw tracepoint: its BTF-typed argument; the probe
 * then loads as a tp_btf program.  NAME's index goes in foff. */
static struct type *rawtp_arg(struct sema *s, struct node *n,
			      struct probe_spec *ps)
{
	const char **names;
	struct type **types;
	int id, k = btf_tp_args(s->c, ps->target, &names, &types, &id);

	if (k < 0) {
		ERR(s, n->a->loc, E_CONTEXT,
		    "raw tracepoint %s has no BTF description: use arg0..argN",
		    ps->target);
		return NULL;
	}
	for (int i = 0; i < k; i++) {
		if (strcmp(names[i], n->name))
			continue;
		if (!types[i] || types[i]->kind == TY_VOID ||
		    types[i]->kind == TY_STRUCT || types[i]->kind == TY_STR) {
			ERR(s, n->loc, E_TYPE,
			    "argument '%s' of %s has a type sonde cannot read yet",
			    n->name, ps->target);
			return NULL;
		}
		ps->tp_btf = true;
		ps->attach_btf_id = id;
		n->foff = i;
		return types[i];
	}
	ERR(s, n->loc, E_TYPE, "raw tracepoint %s has no argument '%s'",
	    ps->target, n->name);
	return NULL;
}

/* The names of F's parameters, ", "-joined, for a message. */
static const char *param_names(struct sema *s, const struct dwarf_func *f)
{
	const char *l = "";

	for (int i = 0; i < f->nparams; i++)
		l = arena_printf(&s->c->arena, "%s%s%s", l, i ? ", " : "",
				 *f->params[i].name ? f->params[i].name : "(unnamed)");
	return l;
}

/* Why a uprobe has no args (used AT): the file has no DWARF, or it
 * does not describe the function. */
static void no_dwarf(struct sema *s, struct loc at, struct probe_spec *ps,
		     int rc)
{
	const char *hint;

	if (rc == -ENOENT && !strncmp(ps->func, "0x", 2)) {
		ERR(s, at, E_CONTEXT,
		    "'args' is only known at a function's entry, and the debug information of %s describes no function starting at %s: use reg()",
		    ps->path, ps->func);
		return;
	}
	if (rc == -ENOENT) {
		ERR(s, at, E_CONTEXT,
		    "the debug information of %s does not describe %s: use arg0..arg5",
		    ps->path, ps->func);
		return;
	}
	if (rc != -ENODATA) {
		ERR(s, at, E_CONTEXT, "cannot read the debug information of %s: %s",
		    ps->path, rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return;
	}
	hint = dwarf_debug_file_hint(s->c, ps->path);
	ERR(s, at, E_CONTEXT,
	    "'args' needs debug information (DWARF), and %s has none, in itself or in %s: build it with -g, install its debug file, or use arg0..arg5",
	    ps->path, hint ? hint : "a debug file (it has no build id)");
}

/* args.NAME of a uprobe: the function's parameter NAME, typed from the
 * file's DWARF; its index goes to cg in foff, which reads it where
 * dwarf.c says it is at the entry.  A uretprobe has no args: the
 * registers that held them are gone at the return. */
static struct type *uprobe_arg(struct sema *s, struct node *n,
			       struct probe_spec *ps)
{
	const struct dwarf_func *f;
	int rc;

	if (!uprobe_entry(s, n->a->loc, ps))
		return NULL;
	rc = dwarf_func(s->c, ps->path, ps->func, ps->uvaddr, &f);
	if (rc) {
		no_dwarf(s, n->a->loc, ps, rc);
		return NULL;
	}
	for (int i = 0; i < f->nparams; i++) {
		const struct dwarf_param *p = &f->params[i];

		if (strcmp(p->name, n->name))
			continue;
		if (!p->ty) {
			ERR(s, n->loc, E_TYPE,
			    "parameter '%s' of %s is %s, which sonde cannot read",
			    n->name, ps->func, p->ctype);
			return NULL;
		}
		if (!p->npieces) {
			ERR(s, n->loc, E_TYPE, "parameter '%s' of %s (%s) %s",
			    n->name, ps->func, p->ctype, p->why ? p->why :
			    "is not known at the function's entry");
			return NULL;
		}
		n->foff = i;
		s->pi->per_site = true;
		return p->ty;
	}
	if (f->nparams)
		ERR(s, n->loc, E_TYPE,
		    "can't find function parameter '%s' in %s; its parameters are: %s",
		    n->name, ps->func, param_names(s, f));
	else
		ERR(s, n->loc, E_TYPE,
		    "can't find function parameter '%s': %s has no parameters",
		    n->name, ps->func);
	return NULL;
}

/* args.NAME of a tracepoint: the field must exist, with the same type,
 * in every tracepoint of the block (cg reads each one's own offset). */
struct type *sema_args_field(struct sema *s, struct node *n)
{
	struct type *t = NULL;

	n->a->ty = &ty_void;
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		const struct tp_field *f = NULL;
		struct type *ft;

		if (ps->ops->ctx == CTX_RAWTP || ps->ops->ctx == CTX_FUNC ||
		    (ps->ops->ctx == CTX_REGS && probe_has(ps, PF_USER))) {
			ft = ps->ops->ctx == CTX_RAWTP ? rawtp_arg(s, n, ps)
			   : ps->ops->ctx == CTX_FUNC ? fentry_arg(s, n, ps)
						      : uprobe_arg(s, n, ps);
			if (!ft)
				return set(n, &ty_error);
			if (t && !ty_equal(t, ft)) {
				ERR(s, n->loc, E_TYPE,
				    "argument '%s' has different types in the probes of this block",
				    n->name);
				return set(n, &ty_error);
			}
			t = ft;
			continue;
		}

		if (ps->ops->ctx != CTX_RECORD || !ps->tp) {
			ERR(s, n->a->loc, E_CONTEXT,
			    "'args' is not available in %s probes", ps->name);
			return set(n, &ty_error);
		}
		f = tp_field_named(ps->tp, n->name);
		if (!f && n->name[0] == '#') {	/* D's args[N] */
			diag_error_d(&s->c->diag, n->loc, E_TYPE, "D_ARGS_IDX",
				     "index %s is out of range for %s args[ ]",
				     n->name + 1, ps->target);
			return set(n, &ty_error);
		}
		if (!f) {
			ERR(s, n->loc, E_TYPE, "tracepoint %s has no field '%s'",
			    ps->target, n->name);
			return set(n, &ty_error);
		}
		if (f->kind == TPF_ARRAY && !tp_field_type(&s->c->arena, f)) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' of %s is %s of %d bytes, which sonde cannot read",
			    n->name, ps->target, f->ctype, f->size);
			return set(n, &ty_error);
		}
		ft = f->kind == TPF_DATALOC ? str_type(s, s->c->strlen_)
		   : f->kind == TPF_PTR && n->name[0] == '#' ?
			syscall_ptr_type(s, f)
		   : f->kind == TPF_PTR ? tp_ptr_type(s, ps->tp, f)
					: tp_field_type(&s->c->arena, f);
		ft = sema_c_int_type(s, ft, f->ctype);
		if (!t) {
			t = ft;
		} else if (t->kind == TY_PTR && ft->kind == TY_PTR &&
			   (t->user != ft->user ||
			    strcmp(t->pointee ? t->pointee->sname : "void",
				   ft->pointee ? ft->pointee->sname : "void"))) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' points to %s in one tracepoint of this block and to %s in %s",
			    n->name, t->pointee ? t->pointee->sname : "void",
			    ft->pointee ? ft->pointee->sname : "void", ps->target);
			return set(n, &ty_error);
		} else if (t->kind == TY_INT && ft->kind == TY_INT) {
			/* write's fd is unsigned int, writev's unsigned long:
			 * both read into their common 64-bit type */
			if (!ty_equal(t, ft))
				t = ty_int(8, t->is_signed && ft->is_signed);
		} else if (t->kind == TY_STR && ft->kind == TY_STR) {
			if (ft->size > t->size)
				t = ft;
		} else if (!ty_equal(t, ft)) {
			ERR(s, n->loc, E_TYPE,
			    "field '%s' is %s in one tracepoint of this block and %s in %s",
			    n->name, type_name(t), type_name(ft), ps->target);
			return set(n, &ty_error);
		}
	}
	if (!t) {
		ERR(s, n->loc, E_CONTEXT, "'args' needs a tracepoint probe");
		return set(n, &ty_error);
	}
	n->builtin = B_ARGS_FIELD;
	/* each tracepoint's own offsets: no raw_syscalls merge */
	s->pi->per_site = true;
	return set(n, t);
}

/* p->member and s.member of kernel structs, typed from BTF. */
struct type *sema_btf_field(struct sema *s, struct node *n, struct type *t)
{
	struct type *st = t->kind == TY_PTR ? t->pointee : t;
	struct btf_member_info mi;
	int rc;

	if (!st || st->kind != TY_STRUCT) {
		ERR(s, n->loc, E_TYPE, "%s is not a pointer to a struct: it has no field '%s'",
		    type_name(t), n->name);
		return set(n, &ty_error);
	}
	rc = btf_member(s->c, st, n->name, &mi);
	if (rc == -ENOENT) {
		ERR(s, n->loc, E_TYPE, "%s has no member '%s'", st->sname, n->name);
		return set(n, &ty_error);
	}
	if (rc) {
		ERR(s, n->loc, E_TYPE,
		    "member '%s' of %s has a type sonde cannot read yet",
		    n->name, st->sname);
		return set(n, &ty_error);
	}
	if (mi.ty->kind == TY_VOID) {
		ERR(s, n->loc, E_TYPE, "member '%s' of %s has no value", n->name,
		    st->sname);
		return set(n, &ty_error);
	}
	if (n->a->kind == N_BUILTIN && n->a->builtin == B_CTX &&
	    mi.ty->kind == TY_STRUCT) {
		ERR(s, n->loc, E_TYPE, "ctx->%s is a struct inside the context; read its members through a pointer",
		    n->name);
		return set(n, &ty_error);
	}
	if (t->user && (mi.ty->kind == TY_PTR || mi.ty->kind == TY_STRUCT ||
			mi.ty->kind == TY_ARRAY) &&
	    !mi.ty->user) {
		/* what a user-memory struct holds or points to is in
		 * user memory too */
		struct type *u = arena_alloc(&s->c->arena, sizeof(*u));

		*u = *mi.ty;
		u->user = true;
		mi.ty = u;
	}
	/* bpftrace reads a bitfield as unsigned, whatever its type
	 * (short b:8 holding 217 is 217); D sign-extends, as C */
	if (mi.bit_size && !s->c->lang_d && mi.ty->kind == TY_INT &&
	    mi.ty->is_signed)
		mi.ty = ty_resize(&s->c->arena, mi.ty, mi.ty->size, false);
	n->builtin = B_BTF_FIELD;
	n->foff = mi.offset;
	n->fshift = mi.bit_shift;
	n->fbits = mi.bit_size;
	return set(n, mi.ty);
}

/* *p: the integer p points to, read from memory (kernel memory, or the
 * process's in user-space probes and for the pointers of syscall
 * tracepoints: cg picks the helper per probe).  A pointer to a struct
 * gives the struct, whose members '.' reads; a plain integer is taken
 * for the address of a uint64, as bpftrace does (*kaddr("avenrun")). */
struct type *sema_deref(struct sema *s, struct node *n, struct type *t)
{
	struct type *to;

	if (t->kind == TY_PTR && t->pointee &&
	    (t->pointee->kind == TY_INT || t->pointee->kind == TY_STRUCT ||
	     t->pointee->kind == TY_PTR)) {
		to = t->pointee;
		if (t->user && !to->user) {
			struct type *u = arena_alloc(&s->c->arena, sizeof(*u));

			*u = *to;
			u->user = true;
			to = u;
		}
		return set(n, to);
	}
	if (t->kind == TY_PTR || t->kind == TY_INT)
		return set(n, &ty_u64);
	ERR(s, n->loc, E_TYPE, "operator '*' cannot take %s: it needs a pointer or an address",
	    type_name(t));
	return set(n, &ty_error);
}
