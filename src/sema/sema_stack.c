/* sema_stack.c - kstack, ustack and dw_ustack: their mode and depth,
 * where they may be taken, the stack map of their depth, and what the
 * CFI stack walker (bpf/cg_unwind.c) needs of the kernel's BTF. */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <string.h>

#include "catalog/btf.h"
#include "probe/probe.h"

/* A stack mode written as a bare word, as bpftrace spells it: the mode,
 * -1 for another word that is no builtin, -2 for anything else. */
static int stack_mode_word(const struct node *a)
{
	if (a->kind != N_BUILTIN || sema_is_builtin(a->name))
		return -2;
	if (!strcmp(a->name, "bpftrace"))
		return SM_BPFTRACE;
	if (!strcmp(a->name, "perf"))
		return SM_PERF;
	if (!strcmp(a->name, "raw"))
		return SM_RAW;
	if (!strcmp(a->name, "build_id"))
		return SM_BUILD_ID;
	return -1;
}

/* The stack walker (bpf/cg_unwind.c) reads the mapping that holds an
 * address: the members it reads, from the kernel's BTF, once.  Without
 * them plain ustack stays the kernel's frame-pointer stack, and
 * dw_ustack() is an error. */
static bool unwind_btf(struct sema *s, struct node *n)
{
	static const char *const want[9][2] = {
		{ "struct vm_area_struct", "vm_start" },
		{ "struct vm_area_struct", "vm_end" },
		{ "struct vm_area_struct", "vm_pgoff" },
		{ "struct vm_area_struct", "vm_file" },
		{ "struct file", "f_inode" },
		{ "struct inode", "i_ino" },
		{ "struct inode", "i_sb" },
		{ "struct super_block", "s_dev" },
		{ "struct task_struct", "mm" },
	};
	struct compiler *c = s->c;

	if (c->uses_unwind)
		return true;
	for (int i = 0; i < 9; i++) {
		struct type *st = btf_available(c) ?
				  btf_type_by_name(c, want[i][0]) : NULL;
		struct btf_member_info mi;

		if (!st || btf_member(c, st, want[i][1], &mi) != 0 || !mi.ty ||
		    mi.bit_size || (mi.ty->size != 4 && mi.ty->size != 8)) {
			if (n->kind != N_CALL || n->builtin != F_DW_USTACK) {
				c->dwarf_unwind = 0;
				return true;
			}
			ERR(s, n->loc, E_CONTEXT,
			    "dw_ustack() reads the kernel's memory mappings, and this kernel's BTF does not describe %s's %s",
			    want[i][0], want[i][1]);
			return false;
		}
		c->unw_btf[i][0] = mi.offset;
		c->unw_btf[i][1] = (int)mi.ty->size;
	}
	c->uses_unwind = true;
	return true;
}

/* kstack or ustack: bare, (N), (MODE), (MODE, N).  The stacks of
 * BEGIN, END and iter probes are only sonde's own (its bpf() running
 * the program, its read() of the iterator): bpftrace 0.17 prints them,
 * sonde's 0.17 dialect refuses them; today's prints them, as bpftrace
 * does. */
struct type *sema_stack(struct sema *s, struct node *n, bool user)
{
	enum stack_mode mode = (enum stack_mode)s->c->stack_mode;
	int64_t depth = KSTACK_MAX_DEPTH;
	int k = 0, nargs = n->kind == N_CALL ? n->nargs : 0, map;
	bool walk;
	const char *what = !user ? "kstack" : n->kind == N_CALL && n->builtin == F_DW_USTACK ? "dw_ustack" : "ustack";

	if (!user && s->pi)
		s->pi->kstack = true;
	if (nargs) {
		struct node *a = n->args[0];
		int m = stack_mode_word(a);

		if (m >= 0) {
			mode = (enum stack_mode)m;
			k = 1;
		} else if (m == -1) {
			ERR(s, a->loc, E_ARGS,
			    "unknown stack mode '%s': use bpftrace, perf, raw or build_id",
			    a->name);
			return set(n, &ty_error);
		} else if (nargs == 2) {
			sema_expr(s, a);
			ERR(s, a->loc, E_ARGS,
			    "%s(mode, depth) takes the stack mode first: bpftrace, perf, raw or build_id",
			    what);
			return set(n, &ty_error);
		}
	}
	if (k < nargs) {
		struct node *a = n->args[k];
		char ctx[32];

		if (stack_mode_word(a) >= 0) {
			ERR(s, a->loc, E_ARGS,
			    "%s() takes one stack mode, then a depth", what);
			return set(n, &ty_error);
		}
		snprintf(ctx, sizeof(ctx), "%s() depth", what);
		/* D: stack("x") is a prototype's mismatch, stack(0) a size */
		if (s->c->lang_d && !is_err(sema_expr(s, a)) && !is_int(a->ty)) {
			sema_d_proto_arg(s, n, k, "int");
			return set(n, &ty_error);
		}
		if (!sema_const_int(s, a, &depth, ctx))
			return set(n, &ty_error);
		if (depth < 1 && s->c->lang_d) {
			DERR(s, a->loc, E_ARGS, "D_STACK_SIZE",
			     "%s( ) size must be a positive integer constant",
			     n->dname ? n->dname : n->name);
			return set(n, &ty_error);
		}
		if (depth < 1) {
			ERR(s, a->loc, E_ARGS, "%s() depth %lld is not positive",
			    what, (long long)depth);
			return set(n, &ty_error);
		}
		if (depth > KSTACK_MAX_DEPTH) {
			ERR(s, a->loc, E_LIMIT,
			    "%s() records at most %d frames, not %lld", what,
			    KSTACK_MAX_DEPTH, (long long)depth);
			return set(n, &ty_error);
		}
	}
	for (int i = 0; i < s->pi->nspecs && s->c->dialect_017; i++) {
		if (probe_has(&s->pi->specs[i], PF_SONDE)) {
			ERR(s, n->loc, E_CONTEXT,
			    "'%s' is not available in %s probes: the %s stack there is sonde's own %s",
			    what, s->pi->specs[i].name, user ? "user" : "kernel",
			    user ? "process" : "system call");
			return set(n, &ty_error);
		}
	}
	map = sema_stack_map(s->c, (int)depth);
	if (user)
		s->c->uses_usyms = true;
	walk = user && (s->c->dwarf_unwind || (n->kind == N_CALL &&
					       n->builtin == F_DW_USTACK));
	if (walk && !unwind_btf(s, n))
		return set(n, &ty_error);
	/* unwind_btf() may have found no BTF: plain ustack then does not
	 * walk (cg_kstack() asks the same) */
	walk = user && (s->c->dwarf_unwind || (n->kind == N_CALL &&
					       n->builtin == F_DW_USTACK));
	s->c->stack_needs[map] |= walk ? STACK_NEED_WALK : STACK_NEED_TRACE;
	if (!user && mode == SM_BUILD_ID) {	/* as bpftrace 0.26 does */
		if (s->report)
			diag_warn(&s->c->diag, n->loc,
				  "'build_id' stack mode can only be used for ustack: kstack falls back to 'raw'");
		mode = SM_RAW;
	}
	return set(n, ty_kstack(&s->c->arena, mode, (int)depth, user));
}
