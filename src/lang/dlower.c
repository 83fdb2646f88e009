/* dlower.c - D's names onto sonde's tree, after the parse and before
 * sema: a global `x` is a map of one value named `x` (no '@': D's
 * names never clash with aggregations), an associative array `a[k]`
 * (parse.c made it) the map `a`, a thread-local `self->x` the map
 * `self->x` keyed by tid, a clause-local `this->x` the variable
 * `this->x`; assigning 0 to an array element or a thread-local deletes
 * it, as D frees it.  D's built-in variables and subroutines become
 * sonde's builtins and calls, each a row of the tables below. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lang/dlower_int.h"
#include "lang/pp.h"
#include "lang/lex.h"
#include "lang/dprobe.h"


/* D's built-in variables that are sonde's under another name. */
static const struct { const char *d, *sonde; } vars[] = {
	{ "execname", "comm" }, { "timestamp", "nsecs" },
	{ "vtimestamp", "nsecs" }, { "pid", "pid" }, { "tid", "tid" },
	{ "uid", "uid" }, { "gid", "gid" }, { "cpu", "cpu" },
	{ "curthread", "curtask" }, { "probeprov", "probeprov" },
	{ "probemod", "probemod" }, { "probefunc", "probefunc" },
	{ "probename", "probename" }, { "uregs", "uregs" },
	{ "stackdepth", "__stackdepth" }, { "ustackdepth", "__ustackdepth" },
	{ "errno", "errno" },
	{ "walltimestamp", "walltimestamp" }, { "ppid", "ppid" },
	{ "arg0", "arg0" }, { "arg1", "arg1" }, { "arg2", "arg2" },
	{ "arg3", "arg3" }, { "arg4", "arg4" }, { "arg5", "arg5" },
	{ "arg6", "arg6" }, { "arg7", "arg7" }, { "arg8", "arg8" },
	{ "arg9", "arg9" }, { "args", "args" }, { "caller", "__caller" },
	{ "ucaller", "__ucaller" }, { "epid", "epid" }, { "id", "id" },
	{ "ipl", "ipl" }, { "root", "root" }, { "cwd", "cwd" },
	{ "zonename", "zonename" }, { "NULL", NULL },
};

/* D's subroutines that are sonde's under another name (D's aggregating
 * functions keep theirs: sema knows them in D, sema_dagg.c). */
static const struct { const char *d, *sonde; } calls[] = {
	{ "copyinstr", "str" }, { "stringof", "str" },
	{ "raise", "signal" }, { "stack", "kstack" },
	{ "jstack", "ustack" }, { "printa", "print" },
	{ "trunc", "clear" }, { "clear", "zero" }, { "trace", "print" },
	{ "alloca", "$alloca" }, { "bcopy", "$bcopy" },
	{ "copyin", "$copyin" }, { "copyinto", "$copyinto" },
	{ "__psargs", "$psargs" },
	{ "sym", "ksym" }, { "func", "ksym" }, { "mod", "ksym" },
	{ "usym", "usym" }, { "ufunc", "usym" }, { "umod", "usym" },
};

struct node *dl_mk(struct lower *lw, enum node_kind k, struct loc loc)
{
	struct node *n = arena_alloc(&lw->c->arena, sizeof(*n));

	n->kind = k;
	n->loc = loc;
	return n;
}



/* N, an integer constant V. */
static void to_int(struct node *n, int64_t v)
{
	n->kind = N_INT;
	n->ival = (uint64_t)v;
	n->name = NULL;
}

/* D's built-in variables that are expressions in sonde: ppid (the
 * parent's tgid), id and epid (the firing line's probe ID),
 * walltimestamp (nsecs plus the wall clock's offset, read when the
 * program is compiled), errno (a syscall return's -value when
 * negative, 0 elsewhere).  True when N was one of them. */
static bool special_var(struct lower *lw, struct node *n)
{
	if (!strcmp(n->name, "ppid")) {
		struct node *task = dl_mk(lw, N_BUILTIN, n->loc);
		struct node *parent = dl_mk(lw, N_FIELD, n->loc);

		task->name = "curtask";
		parent->op = T_ARROW;
		parent->a = task;
		parent->name = "real_parent";
		n->kind = N_FIELD;
		n->op = T_ARROW;
		n->a = parent;
		n->name = "tgid";
		return true;
	}
	if (!strcmp(n->name, "id") || !strcmp(n->name, "epid")) {
		n->name = "__probeid";
		return true;
	}
	if (!strcmp(n->name, "walltimestamp")) {
		struct timespec rt, mono;
		struct node *ns = dl_mk(lw, N_BUILTIN, n->loc);
		struct node *off = dl_mk(lw, N_INT, n->loc);

		clock_gettime(CLOCK_REALTIME, &rt);
		clock_gettime(CLOCK_MONOTONIC, &mono);
		ns->name = "nsecs";
		off->ival = (uint64_t)((rt.tv_sec - mono.tv_sec) * 1000000000LL +
				       (rt.tv_nsec - mono.tv_nsec));
		n->kind = N_BINOP;
		n->op = T_PLUS;
		n->a = ns;
		n->b = off;
		n->name = NULL;
		return true;
	}
	if (!strcmp(n->name, "errno")) {
		struct node *v, *neg, *lt, *zero;

		if (!lw->ret || !lw->prov || strcmp(lw->prov, "syscall")) {
			to_int(n, 0);
			return true;
		}
		v = dl_mk(lw, N_BUILTIN, n->loc);
		dl_syscall_arg(lw, v, 0);
		neg = dl_mk(lw, N_UNOP, n->loc);
		neg->op = T_MINUS;
		neg->a = dl_mk(lw, N_BUILTIN, n->loc);
		dl_syscall_arg(lw, neg->a, 0);
		zero = dl_mk(lw, N_INT, n->loc);
		lt = dl_mk(lw, N_BINOP, n->loc);
		lt->op = T_LT;
		lt->a = v;
		lt->b = zero;
		n->kind = N_TERNARY;
		n->a = lt;
		n->b = neg;
		n->c = dl_mk(lw, N_INT, n->loc);
		n->name = NULL;
		return true;
	}
	return false;
}

/* The thread-local self->NAME: the map "self->NAME"[tid]. */
static void thread_local(struct lower *lw, struct node *n)
{
	struct node *tid = dl_mk(lw, N_BUILTIN, n->loc);

	tid->name = "tid";
	n->kind = N_MAP;
	n->name = arena_printf(&lw->c->arena, "self->%s", n->name);
	n->a = NULL;
	n->op = 0;
	n->args = arena_alloc(&lw->c->arena, sizeof(*n->args));
	n->args[0] = tid;
	n->nargs = 1;
}

/* D's kernel symbol `sym (or module`sym): its value, as the 64-bit
 * word at the address kallsyms gives (D would type it from CTF; sonde
 * has no type for a kernel variable), *(uint64 *)kaddr("sym"); & of
 * it is the address (lower() takes the '*' off again). */
static void kernel_symbol(struct lower *lw, struct node *n)
{
	struct node *ka = dl_mk(lw, N_CALL, n->loc), *name = dl_mk(lw, N_STR, n->loc);
	struct node *cast = dl_mk(lw, N_CAST, n->loc);
	const char *sym = strrchr(n->name, '`') + 1;

	if (!*sym)
		diag_error_d(&lw->c->diag, n->loc, E_UNDEF, "D_IDENT_UNDEF",
			     "failed to resolve %s: Unknown symbol name",
			     n->name);
	name->name = sym;
	name->len = strlen(sym);
	ka->name = "kaddr";
	ka->dname = n->name;
	ka->args = arena_alloc(&lw->c->arena, sizeof(*ka->args));
	ka->args[0] = name;
	ka->nargs = 1;
	cast->tyname = "uint64";
	cast->tyname_ptr = 1;
	cast->a = ka;
	n->kind = N_UNOP;
	n->op = T_STAR;
	n->a = cast;
	n->dname = n->name;
	n->name = NULL;
}

/* D's macro variables of the dtrace process itself: $pid, $ppid,
 * $uid, $gid, $euid, $egid, $pgid, $sid ($projid, $taskid: 0). */
static void macro_var(struct node *n)
{
	static const char *const names[] = {
		"$pid", "$ppid", "$uid", "$gid", "$euid", "$egid", "$pgid",
		"$sid", "$projid", "$taskid",
	};
	int64_t v[ARRAY_SIZE(names)] = {
		getpid(), getppid(), getuid(), getgid(), geteuid(), getegid(),
		getpgid(0), getsid(0), 0, 0,
	};

	for (size_t i = 0; n->kind == N_VAR && i < ARRAY_SIZE(names); i++)
		if (!strcmp(n->name, names[i])) {
			to_int(n, v[i]);
			return;
		}
}

static void builtin(struct lower *lw, struct node *n)
{
	struct node *inl;

	for (inl = lw->prog->dinlines; inl; inl = inl->next)
		if (!strcmp(inl->name, n->name)) {
			struct loc loc = n->loc;
			long made = 0;

			*n = *dl_lower(lw, ast_clone(&lw->c->arena, inl->b, &made));
			n->loc = loc;
			return;
		}
	if (strmap_get(&lw->locals, n->name))
		return;		/* an enumerator of the program's */
	if (strchr(n->name, '`')) {
		kernel_symbol(lw, n);
		return;
	}
	if (!strcmp(n->name, "probeprov") && dl_user_clause(lw->probe)) {
		dl_provider_pid(lw, n);
		return;
	}
	/* ERROR's arguments: what the fault was (bpf/cg.c's fault path) */
	if (lw->in_error && !strncmp(n->name, "arg", 3) &&
	    n->name[3] >= '0' && n->name[3] <= '9' && !n->name[4]) {
		struct node *k = dl_mk(lw, N_INT, n->loc);

		k->ival = (uint64_t)(n->name[3] - '0');
		n->kind = N_CALL;
		n->name = "$fault";
		n->args = arena_alloc(&lw->c->arena, sizeof(*n->args));
		n->args[0] = k;
		n->nargs = 1;
		return;
	}
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		if (strcmp(vars[i].d, n->name))
			continue;
		if (!vars[i].sonde) {		/* NULL */
			n->kind = N_INT;
			n->ival = 0;
			return;
		}
		/* D's args is an array, and dtrace's probes have none */
		if (!strcmp(n->name, "args") && lw->prov &&
		    !strcmp(lw->prov, "dtrace")) {
			diag_error_d(&lw->c->diag, n->loc, E_TYPE,
				     "D_IDENT_BADREF",
				     "array 'args' may not be referenced as a scalar");
			return;
		}
		if (!strncmp(n->name, "arg", 3) && n->name[3] >= '0' &&
		    n->name[3] <= '9' && lw->prov && !strcmp(lw->prov, "syscall")) {
			dl_syscall_arg(lw, n, n->name[3] - '0');
			return;
		}
		if ((!strcmp(n->name, "arg0") || !strcmp(n->name, "arg1")) &&
		    lw->prov && !strcmp(lw->prov, "profile")) {
			/* tick-N's timer has no registers: 0 there */
			if (!strncmp(lw->probe->args[0]->name, "profile:", 8)) {
				dl_profile_arg(lw, n, n->name[3] - '0');
			} else {
				n->kind = N_INT;
				n->ival = 0;
				n->name = NULL;
			}
			return;
		}
		if (lw->ret && !strcmp(n->name, "arg1") && lw->prov &&
		    (!strncmp(lw->prov, "pid", 3) || !strcmp(lw->prov, "fbt"))) {
			n->name = "retval";
			return;
		}
		/* past the six in registers, a function's arguments are on
		 * the stack at its entry: sonde's sargN */
		if (!lw->ret && !strncmp(n->name, "arg", 3) && n->name[3] >= '6' &&
		    lw->prov && (!strncmp(lw->prov, "pid", 3) || !strcmp(lw->prov, "fbt"))) {
			n->name = arena_printf(&lw->c->arena, "sarg%d", n->name[3] - '6');
			return;
		}
		if (special_var(lw, n))
			return;
		n->name = vars[i].sonde;
		return;
	}
	/* anything else is a global variable */
	n->kind = N_MAP;
}

/* progenyof(P) (N): whether the current process is P or descends
 * from it, its ancestors' tgids compared with P up to 16 generations
 * (the chain ends at the idle task, its own parent: no NULL on the
 * way).  Each comparison has nodes of its own: lowering renames them. */
static void progenyof(struct lower *lw, struct node *n)
{
	struct node *all = NULL;
	long made = 0;

	for (int depth = 0; depth <= 16; depth++) {
		struct node *t = dl_mk(lw, N_BUILTIN, n->loc), *eq, *f;

		t->name = "curthread";
		for (int k = 0; k < depth; k++) {
			f = dl_mk(lw, N_FIELD, n->loc);
			f->op = T_ARROW;
			f->name = "real_parent";
			f->a = t;
			t = f;
		}
		f = dl_mk(lw, N_FIELD, n->loc);
		f->op = T_ARROW;
		f->name = "tgid";
		f->a = t;
		eq = dl_mk(lw, N_BINOP, n->loc);
		eq->op = T_EQ;
		eq->a = f;
		eq->b = ast_clone(&lw->c->arena, n->args[0], &made);
		if (all) {
			struct node *o = dl_mk(lw, N_LOR, n->loc);

			o->a = all;
			o->b = eq;
			eq = o;
		}
		all = eq;
	}
	*n = *all;
}

/* N, D's call DNAME, made sonde's NAME(ARG). */
static void as_call(struct lower *lw, struct node *n, const char *dname,
		    const char *name, struct node *arg)
{
	n->args = arena_alloc(&lw->c->arena, sizeof(*n->args));
	n->args[0] = arg;
	n->nargs = 1;
	n->dname = dname;
	n->name = name;
}

static void call(struct lower *lw, struct node *n)
{
	/* D's actions that sonde's print() carries out: D's prototypes */
	if ((!strcmp(n->name, "trace") && n->nargs != 1) ||
	    (!strcmp(n->name, "printa") && n->nargs < 1))
		diag_error_d(&lw->c->diag, n->loc, E_ARGS, "D_PROTO_LEN",
			     "%s( ) prototype mismatch: %d arg%s passed, %s1 expected",
			     n->name, n->nargs, n->nargs == 1 ? "" : "s",
			     n->name[0] == 'p' ? "at least " : "");
	/* copyinstr(p): a string of the process's memory */
	if (!strcmp(n->name, "copyinstr") && n->nargs >= 1) {
		struct node *u = dl_mk(lw, N_CALL, n->args[0]->loc);

		u->name = "uptr";
		u->args = arena_alloc(&lw->c->arena, sizeof(*u->args));
		u->args[0] = n->args[0];
		u->nargs = 1;
		n->args[0] = u;
	}
	if (!strcmp(n->name, "progenyof") && n->nargs == 1) {
		progenyof(lw, n);
		return;
	}
	/* alloca(n), bcopy(s, d, n), copyin(a, n), copyinto(a, n, d):
	 * D's prototypes, then sema's */
	if ((!strcmp(n->name, "alloca") && n->nargs != 1) ||
	    (!strcmp(n->name, "bcopy") && n->nargs != 3) ||
	    (!strcmp(n->name, "copyin") && n->nargs != 2) ||
	    (!strcmp(n->name, "copyinto") && n->nargs != 3)) {
		int want = n->name[0] == 'a' ? 1 :
			   !strcmp(n->name, "copyin") ? 2 : 3;

		diag_error_d(&lw->c->diag, n->loc, E_ARGS, "D_PROTO_LEN",
			     "%s( ) prototype mismatch: %d arg%s passed, %d expected",
			     n->name, n->nargs, n->nargs == 1 ? "" : "s", want);
		return;
	}
	/* tracemem(addr, size[, dsize]): the bytes, as trace() prints
	 * data that is no string (out/dprint.c); the first dsize of them
	 * when given */
	if (!strcmp(n->name, "tracemem")) {
		struct node *b = dl_mk(lw, N_CALL, n->loc);

		if (n->nargs < 2 || n->nargs > 3) {
			diag_error_d(&lw->c->diag, n->loc, E_ARGS, "D_PROTO_LEN",
				     "tracemem( ) prototype mismatch: %d arg%s passed, %s expected",
				     n->nargs, n->nargs == 1 ? "" : "s",
				     n->nargs < 2 ? "at least 2" : "at most 3");
			return;
		}
		if (n->args[1]->kind == N_STR)
			diag_error_d(&lw->c->diag, n->loc, E_ARGS, "D_PROTO_ARG",
				     "tracemem( ) argument #2 is incompatible with prototype:\n\tprototype: size_t\n\t argument: string");
		else if ((n->args[1]->kind != N_INT || !n->args[1]->ival) &&
			 n->args[1]->kind != N_SIZEOF)	/* sema sizes it */
			diag_error_d(&lw->c->diag, n->loc, E_ARGS,
				     "D_TRACEMEM_SIZE",
				     "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
		b->name = "buf";
		b->dname = "tracemem";
		b->args = n->args;
		b->nargs = 2;
		if (n->nargs == 3) {
			/* dsize, at most size: buf() reads that many (its
			 * buffer then strsize bytes) */
			struct node *lt = dl_mk(lw, N_BINOP, n->loc), *t = dl_mk(lw, N_TERNARY, n->loc);

			lt->op = T_LT;
			lt->a = n->args[2];
			lt->b = n->args[1];
			t->a = lt;
			t->b = n->args[2];
			t->c = n->args[1];
			b->args = arena_alloc(&lw->c->arena, sizeof(*b->args) * 2);
			b->args[0] = n->args[0];
			b->args[1] = t;
		}
		as_call(lw, n, "tracemem", "print", b);
		return;
	}
	/* stop(): the process stops, as raise(SIGSTOP) stops it */
	if (!strcmp(n->name, "stop") && !n->nargs) {
		struct node *sig = dl_mk(lw, N_STR, n->loc);

		sig->name = "SIGSTOP";
		sig->len = 7;
		as_call(lw, n, "stop", "signal", sig);
		return;
	}
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if (!strcmp(calls[i].d, n->name)) {
			n->dname = n->name;
			n->name = calls[i].sonde;
			break;
		}
	/* printa("format", @a): print(@a), the format kept for
	 * out/dprint.c (sema puts it in the event) */
	if (!strcmp(n->name, "print") && n->nargs >= 2 &&
	    n->args[0]->kind == N_STR) {
		n->tyname = n->args[0]->name;
		n->args++;
		n->nargs--;
	}
	/* printa([fmt, ]@a, @b, ...): the rows of several aggregations
	 * joined by key; sema's print_map() takes them all */
	if (n->dname && !strcmp(n->dname, "printa") && n->nargs > 1)
		n->ival = 1;
}

/* stack(); ustack(); as statements: D's actions that print the stack
 * (sonde's kstack and ustack are values), so print() them. */
static void stack_action(struct lower *lw, struct node *st)
{
	struct node *c = st->a, *pr;

	if (!c || c->kind != N_CALL || (strcmp(c->name, "kstack") &&
					 strcmp(c->name, "ustack")))
		return;
	pr = dl_mk(lw, N_CALL, c->loc);
	pr->name = "print";
	pr->args = arena_alloc(&lw->c->arena, sizeof(*pr->args));
	pr->args[0] = c;
	pr->nargs = 1;
	st->a = pr;
}

/* Add to lw->scalars the globals N assigns as a whole ("p = &a[0];"). */
static void find_scalars(struct lower *lw, const struct node *n)
{
	if (!n)
		return;
	if (n->kind == N_ASSIGN && (n->a->kind == N_BUILTIN ||
				    (n->a->kind == N_MAP && !n->a->nargs)) &&
	    n->a->name && n->a->name[0] != '@')
		strmap_put(&lw->scalars, &lw->c->arena, n->a->name,
			   (void *)n->a);
	find_scalars(lw, n->a);
	find_scalars(lw, n->b);
	find_scalars(lw, n->c);
	for (int i = 0; i < n->nargs; i++)
		find_scalars(lw, n->args[i]);
}

/* a[i] (parsed as the associative array a) of a global declared "int
 * a[5]" or "int *a", or one the program assigns as a whole: element i
 * of the one value a, an array or a pointer. */
static void declared_array(struct lower *lw, struct node *n)
{
	struct node *v = ast_dvar(lw->prog, n->name), *base;

	if (n->nargs > 1 && v && !(v->ival & DV_ASSOC) &&
	    (v->nargs || v->tyname_ptr))
		diag_error_d(&lw->c->diag, n->loc, E_TYPE, "D_ARR_BADREF",
			     "cannot access scalar %s as an associative array",
			     n->name);
	if (n->nargs != 1 || (v && (v->ival & DV_ASSOC)) ||
	    (!(v && (v->nargs || v->tyname_ptr)) &&
	     !strmap_get(&lw->scalars, n->name)))
		return;
	base = dl_mk(lw, N_MAP, n->loc);
	base->name = n->name;
	n->kind = N_INDEX;
	n->a = base;
	n->b = n->args[0];
	n->args = NULL;
	n->nargs = 0;
	n->name = NULL;
}

/* A store into a member or element of a variable kept in a map (a
 * global, a thread-local, an array's element: "g.x = 1", "a[k].p.y =
 * 2", "arr[3] = 4") is one of the whole value: copied into a variable,
 * changed there, stored back.  Other stores are sema's to check. */
static struct node *member_store(struct lower *lw, struct node *n)
{
	struct node **rootp = &n->a, *tmp, *s[3], *b;
	long made = 0;

	while (((*rootp)->kind == N_FIELD && (*rootp)->op == T_DOT) ||
	       (*rootp)->kind == N_INDEX)
		rootp = &(*rootp)->a;
	if (rootp == &n->a || (*rootp)->kind != N_MAP ||
	    (*rootp)->name[0] == '@')
		return n;
	/* p[i] = v of an undeclared global: a pointer's (sema) */
	if (n->a->kind == N_INDEX && &n->a->a == rootp) {
		struct node *v = ast_dvar(lw->prog, (*rootp)->name);

		if (!v || (v->tyname_ptr && !v->nargs))
			return n;
	}
	tmp = dl_mk(lw, N_VAR, (*rootp)->loc);
	tmp->name = arena_printf(&lw->c->arena, "$%s", (*rootp)->name);
	s[0] = dl_mk(lw, N_ASSIGN, n->loc);
	s[0]->op = T_ASSIGN;
	s[0]->a = tmp;
	s[0]->b = ast_clone(&lw->c->arena, *rootp, &made);
	s[2] = dl_mk(lw, N_ASSIGN, n->loc);
	s[2]->op = T_ASSIGN;
	s[2]->a = *rootp;
	s[2]->b = ast_clone(&lw->c->arena, tmp, &made);
	s[2]->dname = "member";	/* an array may be stored so: sema */
	*rootp = ast_clone(&lw->c->arena, tmp, &made);
	s[1] = n;
	b = dl_mk(lw, N_BLOCK, n->loc);
	b->args = arena_alloc(&lw->c->arena, sizeof(s));
	memcpy(b->args, s, sizeof(s));
	b->nargs = 3;
	return b;
}

/* Whether N names a whole global declared as an array ("int a[5];"). */
static bool array_var(struct lower *lw, const struct node *n)
{
	struct node *v;

	if (n->kind != N_MAP || n->nargs || n->name[0] == '@')
		return false;
	v = ast_dvar(lw->prog, n->name);
	return v && v->nargs && !(v->ival & DV_ASSOC);
}

/* An array variable A given as a value is the address of its first
 * element, as in C: &A[0]. */
static struct node *decay(struct lower *lw, struct node *a)
{
	struct node *amp = dl_mk(lw, N_UNOP, a->loc), *ix = dl_mk(lw, N_INDEX, a->loc);

	ix->a = a;
	ix->b = dl_mk(lw, N_INT, a->loc);
	amp->op = T_AMP;
	amp->a = ix;
	return amp;
}

/* The declaration "TYPE NAME;" (or "TYPE NAME[KEYS];") of the integer
 * variable or associative array element X stores, or NULL. */
static struct node *declared_int(struct lower *lw, const struct node *x)
{
	if (!((x->kind == N_MAP && x->name[0] != '@') ||
	      (x->kind == N_VAR && !strncmp(x->name, "$this->", 7))))
		return NULL;
	for (struct node *v = lw->prog->dvars; v; v = v->next)
		if (!strcmp(v->name, x->name))
			/* self->x is "self->x"[tid], self->a[k] "self->a"[tid, k] */
			return v->ival & (x->kind == N_MAP &&
					  x->nargs > !strncmp(x->name, "self->", 6) ?
					  DV_INTVAL : DV_INT) ? v : NULL;
	return NULL;
}

/* A binary operator of D's compound assignment OP (+= gives +). */
static int compound_op(int op)
{
	static const int ops[][2] = {
		{ T_ADD_ASSIGN, T_PLUS }, { T_SUB_ASSIGN, T_MINUS },
		{ T_MUL_ASSIGN, T_STAR }, { T_DIV_ASSIGN, T_SLASH },
		{ T_MOD_ASSIGN, T_PERCENT }, { T_AND_ASSIGN, T_AMP },
		{ T_OR_ASSIGN, T_PIPE }, { T_XOR_ASSIGN, T_CARET },
		{ T_SHL_ASSIGN, T_SHL }, { T_SHR_ASSIGN, T_SHR },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++)
		if (ops[i][0] == op)
			return ops[i][1];
	return 0;
}

/* D frees an array element or a thread-local assigned 0. */
static struct node *assign(struct lower *lw, struct node *n)
{
	struct node *v = declared_int(lw, n->a), *cast;

	if (array_var(lw, n->b))
		n->b = decay(lw, n->b);
	/* a variable declared "TYPE NAME;" or an associative array
	 * "TYPE NAME[KEYS];": what it gets is converted to TYPE, as C
	 * converts it (0 to an element stays 0: it deletes it); x op= y
	 * is x = (TYPE)(x op y) */
	if (v && n->op != T_ASSIGN && compound_op(n->op)) {
		struct node *b = dl_mk(lw, N_BINOP, n->loc);
		long made = 0;

		b->op = compound_op(n->op);
		b->a = ast_clone(&lw->c->arena, n->a, &made);
		b->b = n->b;
		n->b = b;
		n->op = T_ASSIGN;
	}
	if (v && n->op == T_ASSIGN &&
	    !(n->a->kind == N_MAP && n->a->nargs && n->b->kind == N_INT &&
	      n->b->ival == 0)) {
		cast = dl_mk(lw, N_CAST, n->b->loc);
		cast->tyname = v->tyname;
		cast->dname = "declared";	/* D_OP_INCOMPAT */
		cast->a = n->b;
		n->b = cast;
	}
	if (n->a->kind == N_MAP && n->a->nargs && n->a->name[0] != '@' &&
	    n->op == T_ASSIGN && n->b->kind == N_INT && n->b->ival == 0) {
		struct node *d = dl_mk(lw, N_CALL, n->loc);
		struct node *s = dl_mk(lw, N_EXPRSTMT, n->loc);

		d->name = "delete";
		d->args = arena_alloc(&lw->c->arena, sizeof(*d->args));
		d->args[0] = n->a;
		d->nargs = 1;
		s->a = d;
		return s;
	}
	return member_store(lw, n);
}


/* N, a member access: args[0]->pr_pid, an inline's translation,
 * self->x and this->x; NULL when it stays a member access. */
static struct node *field(struct lower *lw, struct node *n)
{
	struct node *x;

	n->a = dl_proc_args(lw, n->a);	/* args[0]->pr_pid */
	/* curpsinfo->pr_pid: an inline's translation */
	for (x = lw->prog->dinlines; n->a->kind == N_BUILTIN && x; x = x->next)
		if (!strcmp(x->name, n->a->name) && x->b->kind == N_CALL &&
		    !strcmp(x->b->name, "xlate")) {
			long made = 0;

			n->a = ast_clone(&lw->c->arena, x->b, &made);
			break;
		}
	x = d_xlate_field(lw->c, lw->prog, n);
	if (x && x != n)
		return dl_lower(lw, x);
	if (x)
		return n;
	if (n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "self")) {
		thread_local(lw, n);
		return n;
	}
	if (n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "this")) {
		n->kind = N_VAR;
		n->name = arena_printf(&lw->c->arena, "$this->%s", n->name);
		n->a = NULL;
		n->op = 0;
		return n;
	}
	return NULL;
}

/* $N (N), a macro argument: one not given is D_MACRO_UNDEF where it is
 * read, before what holds it is parsed, as dtrace says it; $$N is the
 * argument as a string.  Each one read is noted (D_MACRO_UNUSED). */
static void positional(struct lower *lw, struct node *n)
{
	struct compiler *c = lw->c;

	if (n->ival > 0 && (int)n->ival > c->nparams && !c->dt_defaultargs)
		diag_error_d(&c->diag, n->loc, E_POSITIONAL, "D_MACRO_UNDEF",
			     "macro argument $%s%d is not defined",
			     n->len ? "$" : "", (int)n->ival);
	if (n->ival > 0 && n->ival <= 64)
		c->params_used |= 1ULL << (n->ival - 1);
	if (n->len) {
		const char *v = n->ival > 0 && (int)n->ival <= c->nparams ?
				c->params[n->ival - 1] : "";

		n->kind = N_STR;
		n->name = v;
		n->len = strlen(v);
	}
}

struct node *dl_lower(struct lower *lw, struct node *n)
{
	if (!n)
		return NULL;
	if (n->kind == N_MAP && !strcmp(n->name, "uregs") && n->nargs == 1)
		return dl_uregs(lw, n);
	if (n->kind == N_MAP && dl_proc_args(lw, n) != n)
		return dl_lower(lw, dl_proc_args(lw, n));
	switch (n->kind) {
	case N_POSITIONAL:
		positional(lw, n);
		return n;
	case N_BUILTIN:
		builtin(lw, n);
		return n;
	case N_FIELD: {
		struct node *x = field(lw, n);

		if (x)
			return x;
		break;
	}
	case N_CAST:
		if (n->a->kind == N_CALL && !strcmp(n->a->name, "xlate") &&
		    n->a->tyname_ptr)
			diag_error_d(&lw->c->diag, n->loc, E_TYPE, "D_CAST_INVAL",
				     "invalid cast expression: \"pointer to translated data\" to \"%s%s%.*s\"",
				     n->tyname, n->tyname_ptr ? " " : "",
				     n->tyname_ptr, "********");
		break;
	case N_VAR:
		if (!strcmp(n->name, "$target")) {
			if (lw->c->has_command) {
				n->kind = N_BUILTIN;
				n->name = "cpid";
			} else {
				n->kind = N_INT;
				n->ival = (uint64_t)lw->c->target_pid;
			}
		}
		macro_var(n);
		return n;
	case N_ASSIGN: {
		struct node *x = d_xlate_assign(lw->c, lw->prog, n);

		if (x)
			return dl_lower(lw, x);
		break;
	}
	case N_CALL:
		/* a translation as a value: its input's */
		if (!strcmp(n->name, "xlate") && n->tyname)
			return dl_lower(lw, n->args[0]);
		call(lw, n);
		break;
	case N_MAP:
		/* self->a[k]: "self->a"[tid, k] (parse.c marks it) */
		if (n->ival == 1 && !strncmp(n->name, "self->", 6)) {
			struct node **keys = arena_alloc(&lw->c->arena,
							 sizeof(*keys) * (size_t)(n->nargs + 1));
			struct node *tid = dl_mk(lw, N_BUILTIN, n->loc);

			tid->name = "tid";
			keys[0] = tid;
			for (int i = 0; i < n->nargs; i++)
				keys[i + 1] = n->args[i];
			n->args = keys;
			n->nargs++;
			n->ival = 0;
			for (int i = 1; i < n->nargs; i++)
				n->args[i] = dl_lower(lw, n->args[i]);
			return n;
		}
		/* a translation is no value to keep: D_KEY_TYPE */
		for (int i = 0; i < n->nargs; i++) {
			struct node *k = n->args[i];

			for (struct node *x = lw->prog->dinlines; k->kind == N_BUILTIN && x; x = x->next)
				if (!x->nargs && !strcmp(x->name, k->name))
					k = x->b;
			if (k->kind == N_CALL && !strcmp(k->name, "xlate") && k->tyname)
				diag_error_d(&lw->c->diag, n->args[i]->loc, E_TYPE, "D_KEY_TYPE",
					     "translated data (%s%s) cannot be a key",
					     k->tyname, k->tyname_ptr ? " *" : "");
		}
		/* an inline's parameters given: f[1, 2] */
		for (struct node *x = lw->prog->dinlines; x; x = x->next)
			if (x->nargs && !strcmp(x->name, n->name)) {
				struct loc loc = n->loc;

				if (x->nargs != n->nargs) {
					diag_error_d(&lw->c->diag, n->loc, E_ARGS, "D_ARR_BADREF",
						     "%s[ ] takes %d argument%s, not %d",
						     x->name, x->nargs, x->nargs == 1 ? "" : "s",
						     n->nargs);
					return n;
				}
				n = dl_lower(lw, d_subst(lw->c, x->b, x->args, n->args, n->nargs));
				n->loc = loc;
				return n;
			}
		declared_array(lw, n);
		break;
	case N_UNOP:
		/* &`sym: the symbol's address */
		if (n->op == T_AMP && n->a->kind == N_BUILTIN &&
		    strchr(n->a->name, '`')) {
			struct node *v = dl_lower(lw, n->a);

			return v->kind == N_UNOP ? v->a : v;
		}
		break;
	default:
		break;
	}
	n->a = dl_lower(lw, n->a);
	n->b = dl_lower(lw, n->b);
	n->c = dl_lower(lw, n->c);
	for (int i = 0; i < n->nargs; i++)
		n->args[i] = dl_lower(lw, n->args[i]);
	/* &a[N]: N may be one past the end (sema) */
	if (n->kind == N_UNOP && n->op == T_AMP && n->a->kind == N_INDEX)
		n->a->ival = 1;
	if (n->kind == N_ASSIGN)
		return assign(lw, n);
	/* x++ of a declared integer, a statement: x = (TYPE)(x + 1) */
	if (n->kind == N_EXPRSTMT && n->a->kind == N_INCDEC &&
	    declared_int(lw, n->a->a)) {
		struct node *x = dl_mk(lw, N_ASSIGN, n->loc);

		x->op = n->a->op == T_INC ? T_ADD_ASSIGN : T_SUB_ASSIGN;
		x->a = n->a->a;
		x->b = dl_mk(lw, N_INT, n->loc);
		x->b->ival = 1;
		return assign(lw, x);
	}
	if (n->kind == N_EXPRSTMT)
		stack_action(lw, n);
	return n;
}

struct node *dl_word(struct lower *lw, enum node_kind k, const char *name,
		      struct loc loc)
{
	struct node *n = dl_mk(lw, k, loc);

	n->name = name;
	if (k == N_STR)
		n->len = strlen(name);
	return n;
}

/* printf(FMT, ARGS...) as a statement; MARK 1: D's firing line. */
static struct node *say(struct lower *lw, struct loc loc, int mark,
			struct node **args, int nargs)
{
	struct node *call = dl_word(lw, N_CALL, "printf", loc);
	struct node *st = dl_mk(lw, N_EXPRSTMT, loc);

	call->ival = (uint64_t)mark;
	call->args = arena_alloc(&lw->c->arena, sizeof(*args) * (size_t)nargs);
	memcpy(call->args, args, sizeof(*args) * (size_t)nargs);
	call->nargs = nargs;
	st->a = call;
	return st;
}

/* Not quiet, each firing prints a line: "CPU ID FUNCTION:NAME " (only
 * FUNCTION:NAME under _DTRACE_TESTING), then what its actions print,
 * then a newline, as dtrace(1) does.  In a clause that speculates, the
 * line comes after the speculate(), so that it is kept with the
 * records and printed by their commit(). */
static void firing_line(struct lower *lw, struct node *p)
{
	struct node *b = p->b, **v;
	struct node *args[4];
	int n = 0, at = d_spec_at(b);
	bool testing = getenv("_DTRACE_TESTING") != NULL;

	args[n++] = dl_word(lw, N_STR, testing ? "%32s " : "%3d %6d %32s ", p->loc);
	if (!testing) {
		args[n++] = dl_word(lw, N_BUILTIN, "cpu", p->loc);
		args[n++] = dl_word(lw, N_BUILTIN, "__probeid", p->loc);
	}
	args[n++] = dl_word(lw, N_BUILTIN, "__probefn", p->loc);
	v = arena_alloc(&lw->c->arena, sizeof(*v) * (size_t)(b->nargs + 2));
	if (at)		/* (an empty clause's block has no array) */
		memcpy(v, b->args, sizeof(*v) * (size_t)at);
	v[at] = say(lw, p->loc, 1, args, n);
	if (b->nargs > at)
		memcpy(v + at + 1, b->args + at,
		       sizeof(*v) * (size_t)(b->nargs - at));
	args[0] = dl_word(lw, N_STR, "\n", p->loc);
	v[b->nargs + 1] = say(lw, p->loc, 0, args, 1);
	b->args = v;
	b->nargs += 2;
}

/* Does N (a statement or expression) record data, as trace(),
 * printf() and the other actions do?  Assignments and aggregations
 * record none: their firings print no line. */
static bool records(const struct node *n)
{
	static const char *const acts[] = {
		"printf", "print", "trace", "exit", "kstack", "ustack",
		"tracemem", "system", "printm", "signal", "freopen", "setopt",
	};

	if (!n)
		return false;
	if (n->kind == N_CALL)
		for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++)
			if (!strcmp(n->name, acts[i]))
				return true;
	if (records(n->a) || records(n->b) || records(n->c))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (records(n->args[i]))
			return true;
	return false;
}

/* -q, or #pragma D option quiet */
static bool quiet(struct compiler *c, struct program *prog)
{
	if (c->dt_quiet)
		return true;
	for (struct lex_pragma *p = prog->dpragmas; p; p = p->next)
		if (!strcmp(p->text, "option quiet") ||
		    (!strncmp(p->text, "option quiet=", 13) &&
		     d_option_on(p->text + 13)))	/* quiet=on, quiet=1 */
			return true;
	return false;
}

/* Add to LETS (N of them, up to MAX) a `let` of each declared
 * clause-local N uses. */
static void uses_locals(struct lower *lw, const struct node *n,
			struct node **lets, int *nlets, int max)
{
	if (!n)
		return;
	if (n->kind == N_VAR && !strncmp(n->name, "$this->", 7) &&
	    ast_dvar(lw->prog, n->name) && *nlets < max) {
		struct node *l;

		for (int i = 0; i < *nlets; i++)
			if (!strcmp(lets[i]->a->name, n->name))
				return;
		l = dl_mk(lw, N_LET, n->loc);
		l->a = dl_mk(lw, N_VAR, n->loc);
		l->a->name = n->name;
		l->c = ast_dvar(lw->prog, n->name);
		lets[(*nlets)++] = l;
	}
	uses_locals(lw, n->a, lets, nlets, max);
	uses_locals(lw, n->b, lets, nlets, max);
	uses_locals(lw, n->c, lets, nlets, max);
	for (int i = 0; i < n->nargs; i++)
		uses_locals(lw, n->args[i], lets, nlets, max);
}

/* The clause-locals that clause P declares with a type ("this int
 * x;", "this struct s v;") start zeroed: each is `let` first, its
 * declaration in the N_LET's c for sema. */
static void declared_locals(struct lower *lw, struct node *p)
{
	struct node *lets[64], **args;
	int n = 0;

	uses_locals(lw, p->a, lets, &n, 64);
	uses_locals(lw, p->b, lets, &n, 64);
	if (!n)
		return;
	args = arena_alloc(&lw->c->arena,
			   sizeof(*args) * (size_t)(n + p->b->nargs));
	memcpy(args, lets, sizeof(*args) * (size_t)n);
	if (p->b->nargs)
		memcpy(args + n, p->b->args, sizeof(*args) * (size_t)p->b->nargs);
	p->b->args = args;
	p->b->nargs += n;
}

/* The ERROR clauses, copied for clause P: what its fault path runs
 * (bpf/cg.c), each "if (PREDICATE) { BODY }" with arg0..arg9 the
 * fault's (an $fault(N) call). */
static struct node *error_clauses(struct lower *lw, struct node *p)
{
	struct node *b = dl_mk(lw, N_BLOCK, p->loc);
	const char *prov = lw->prov;
	int n = 0;
	long made = 0;

	for (struct node *e = lw->prog->derrors; e; e = e->next)
		n++;
	b->args = arena_alloc(&lw->c->arena, sizeof(*b->args) * (size_t)n);
	lw->in_error = true;
	lw->prov = "dtrace";
	for (struct node *e = lw->prog->derrors; e; e = e->next) {
		struct node *f = dl_mk(lw, N_IF, e->loc);

		f->a = e->a ? dl_lower(lw, ast_clone(&lw->c->arena, e->a, &made)) :
			      dl_mk(lw, N_INT, e->loc);
		f->a->ival |= !e->a;	/* no predicate: 1 */
		f->b = dl_lower(lw, ast_clone(&lw->c->arena, e->b, &made));
		b->args[b->nargs++] = f;
	}
	lw->in_error = false;
	lw->prov = prov;
	return b;
}

int d_lower(struct compiler *c, struct program *prog)
{
	struct lower lw = { .c = c, .prog = prog };

	d_xlate_check(c, prog);
	for (struct node *t = prog->types; t; t = t->next)
		if (t->kind == N_ENUMDEF)
			for (int i = 0; i < t->nargs; i++)
				if (t->args[i]->name)
					strmap_put(&lw.locals, &c->arena,
						   t->args[i]->name, t->args[i]);
	for (struct node *p = prog->probes; p; p = p->next)
		find_scalars(&lw, p);
	for (struct node *p = prog->probes; p; p = p->next) {
		const char *f[1];
		const char *desc = p->nargs ? p->args[0]->tyname : "";

		lw.probe = p;
		if (!c->target_pid)
			d_target_files(c, p);
		lw.prov = d_probe_field(&c->arena, desc, p->args[0]->name, 0);
		f[0] = d_probe_field(&c->arena, desc, p->args[0]->name, 3);
		lw.ret = !strcmp(f[0], "return");
		lw.pname = f[0];
		d_spec_clause(c, p);
		dl_probe_condition(&lw, p);
		p->a = dl_lower(&lw, p->a);
		p->b = dl_lower(&lw, p->b);
		declared_locals(&lw, p);
		if (prog->derrors)
			p->c = error_clauses(&lw, p);
		/* a clause without actions prints its line, as one
		 * that records data does */
		if (!quiet(c, prog) && (!p->b->nargs || records(p->b)))
			firing_line(&lw, p);
	}
	return c->diag.nerrors ? -1 : 0;
}
