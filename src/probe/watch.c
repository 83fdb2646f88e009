/* watch.c - hardware watchpoints in a process (-p or -c):
 * watchpoint:ADDR:LEN:MODE on a fixed address, and
 * watchpoint:FUNC+argN:LEN:MODE and asyncwatchpoint:FUNC+argN:LEN:MODE
 * on the address a function of the process's executable receives.
 *
 * A function's watchpoint is two programs, as in bpftrace 0.17: a
 * uprobe on FUNC (the kind watchsetup, which bpf/ generates itself)
 * sends argN to user space, stopping the process first (SIGSTOP) unless
 * the watchpoint is async; run/ then opens a breakpoint on that address
 * for the block's program (the kind watcharg, attached at STAGE_WATCH,
 * not before BEGIN) and lets the process go on (SIGCONT). */
#include "probe/kinds.h"

#include <ctype.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch.h"
#include "catalog/elfsym.h"

/* The hardware watches reads with writes, or executes alone. */
static int watch_mode(const char *m)
{
	int type = 0;

	for (; *m; m++) {
		int bit = *m == 'r' ? HW_BREAKPOINT_R : *m == 'w' ? HW_BREAKPOINT_W :
			  *m == 'x' ? HW_BREAKPOINT_X : 0;

		if (!bit || (type & bit))
			return -1;
		type |= bit;
	}
	if (type <= 0 || type == HW_BREAKPOINT_R ||
	    ((type & HW_BREAKPOINT_X) && type != HW_BREAKPOINT_X))
		return -1;
	return type;
}

/* The program the traced process runs, opened by PATH and named by
 * *SHOWN as bpftrace names it: -p's /proc/PID/exe, or the first word of
 * -c's command (through $PATH); NULL after an error. */
static const char *watched_file(struct probe_exp *x, const char **shown)
{
	struct compiler *c = x->c;
	char *word, *path;
	size_t n;

	if (c->target_pid) {
		path = arena_printf(&c->arena, "/proc/%d/exe", c->target_pid);
		*shown = path;
		return path;
	}
	if (!c->command) {
		probe_error(x, "%s: no command to look for functions in", x->ops->name);
		return NULL;
	}
	n = strcspn(c->command, " \t\n");
	word = arena_strndup(&c->arena, c->command, n);
	*shown = word;
	path = elf_resolve_path(word, 0);
	if (!path) {
		probe_error(x, "%s: cannot find the program of -c '%s' to look for its functions",
			    x->ops->name, c->command);
		return NULL;
	}
	word = arena_strdup(&c->arena, path);
	free(path);
	return word;
}

struct wfuncs {
	struct probe_exp *x;
	const char *path, *shown, *mode;
	int arg, len, type;
};

static void add_wfunc(void *arg, const struct elf_func *f)
{
	struct wfuncs *w = arg;
	struct compiler *c = w->x->c;
	struct probe_spec *ps = probe_add(w->x);

	ps->ops = &probe_watcharg_ops;
	ps->perf_type = PERF_TYPE_BREAKPOINT;
	ps->bp_len = w->len;
	ps->bp_type = w->type;
	ps->user_mem = true;	/* the watched process's memory */
	ps->watch_arg = w->arg;
	ps->watch_async = w->x->ops->kind == PK_ASYNCWATCH;
	ps->path = w->path;
	ps->uoffset = f->offset;
	ps->uvaddr = f->addr;
	ps->func = arena_strdup(&c->arena, f->name);
	/* bpftrace 0.17's name: the file as shown, the function, N */
	ps->name = arena_printf(&c->arena, "%s:%s:%s:%d:%d:%s",
				w->x->ops->name, w->shown, f->name, w->arg,
				w->len, w->mode);
}

/* FUNC+argN:LEN:MODE: one spec per function of the process's program
 * that FUNC matches; 0, or -1 after an error. */
static int func_expand(struct probe_exp *x, char *plus, int len, int type)
{
	struct wfuncs w = { x, NULL, NULL, x->f[3], 0, len, type };
	const char *kind = x->ops->name, *fname = x->f[1];
	char *end;
	long n;
	int rc;

	*plus = 0;
	errno = 0;
	n = strtol(plus + 4, &end, 10);
	if (!isdigit((unsigned char)plus[4]) || *end || errno || !*fname) {
		probe_error(x, "%s: '%s+%s' is not FUNC+argN, as in %s:increment+arg1:4:w",
			    kind, fname, plus + 1, kind);
		return -1;
	}
	if (pt_regs_arg((int)n) < 0 || n > 5) {
		probe_error(x, "%s: arg%ld is not in a register: x86-64 passes arg0 to arg5 in registers",
			    kind, n);
		return -1;
	}
	w.arg = (int)n;
	if (!x->c->target_pid && !x->c->has_command) {
		probe_error(x, "%s: a function's argument is watched in a process: give one with -p PID or -c 'CMD'",
			    kind);
		return -1;
	}
	w.path = watched_file(x, &w.shown);
	if (!w.path)
		return -1;
	rc = elf_functions(w.path, fname, add_wfunc, &w);
	if (rc < 0) {
		probe_error(x, "%s: cannot read %s: %s", kind, w.shown,
			    rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return -1;
	}
	if (!x->n) {
		if (probe_wild(fname))
			probe_missing(x, "%s: no function of %s matches %s",
				      kind, w.shown, fname);
		else
			probe_missing(x, "%s: function %s not found in %s",
				      kind, fname, w.shown);
		return -1;
	}
	return 0;
}

/* watchpoint:ADDR:LEN:MODE, a hardware breakpoint on a user address of
 * the process of -p or -c; watchpoint:FUNC+argN:LEN:MODE and
 * asyncwatchpoint:FUNC+argN:LEN:MODE, on the addresses FUNC receives. */
static int watch_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name;
	struct probe_spec *ps;
	uint64_t addr, len;
	char *end, *plus;
	int type;

	if (x->nf != 4) {
		probe_error(x, "%s probe needs an address, a length and a mode: %s",
			    kind, x->ops->kind == PK_ASYNCWATCH ?
			    "asyncwatchpoint:increment+arg1:4:w" :
			    "watchpoint:0x10000000:8:w");
		return -1;
	}
	if (probe_u64(x->f[2], &len) || (len != 1 && len != 2 && len != 4 && len != 8)) {
		probe_error(x, "%s length must be 1, 2, 4 or 8, not '%s'",
			    kind, x->f[2]);
		return -1;
	}
	type = watch_mode(x->f[3]);
	if (type < 0) {
		probe_error(x, "%s mode must be w, rw or x, not '%s'",
			    kind, x->f[3]);
		return -1;
	}
	plus = strstr(x->f[1], "+arg");
	if (plus && !isdigit((unsigned char)x->f[1][0]))
		return func_expand(x, plus, (int)len, type);
	if (x->ops->kind == PK_ASYNCWATCH) {
		probe_error(x, "asyncwatchpoint needs a function's argument, not an address: asyncwatchpoint:FUNC+argN:LEN:MODE");
		return -1;
	}
	errno = 0;
	addr = strtoull(x->f[1], &end, 0);
	if (errno || *end || !*x->f[1] || !addr) {
		probe_error(x, "watchpoint address '%s' is not a number (or FUNC+argN)",
			    x->f[1]);
		return -1;
	}
	if (!c->target_pid && !c->has_command) {
		probe_error(x, "a watchpoint watches a process: give one with -p PID or -c 'CMD'");
		return -1;
	}
	ps = probe_add(x);
	ps->perf_type = PERF_TYPE_BREAKPOINT;
	ps->bp_addr = addr;
	ps->bp_len = (int)len;
	ps->bp_type = type;
	ps->user_mem = true;
	ps->name = arena_printf(&c->arena, "watchpoint:0x%llx:%d:%s",
				(unsigned long long)addr, (int)len, x->f[3]);
	return 0;
}

struct probe_spec probe_watch_setup(struct compiler *c,
				    const struct probe_spec *body)
{
	struct probe_spec ps = *body;

	ps.ops = &probe_watchsetup_ops;
	ps.user_mem = true;
	ps.wild = false;
	ps.name = arena_printf(&c->arena, "uprobe:%s:%s (for %s)", body->path,
			       body->func, body->name);
	return ps;
}

static void watch_load(const struct probe_spec *ps, struct probe_load *pl)
{
	(void)ps;
	pl->type = BPF_PROG_TYPE_PERF_EVENT;
}

static void setup_load(const struct probe_spec *ps, struct probe_load *pl)
{
	(void)ps;
	pl->type = BPF_PROG_TYPE_KPROBE;
}

/* A hardware breakpoint in the traced process (any CPU). */
static int watch_attach(const struct probe_spec *ps, int fd,
			struct probe_env *env)
{
	struct perf_event_attr attr;
	int pfd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_addr = ps->bp_addr;
	attr.bp_len = (uint64_t)ps->bp_len;
	attr.bp_type = (uint32_t)ps->bp_type;
	attr.sample_period = 1;
	/* precise_ip 0: with it set, bpf_get_stackid (kstack) needs a
	 * callchain in the sample and the link fails with EPROTO */
	attr.precise_ip = 0;
	pfd = probe_perf_open(&attr, env->pid, -1);
	if (pfd < 0)
		return -errno;
	return probe_perf_attach(env, pfd, fd);
}

/* The uprobe on the function, in the traced process. */
static int setup_attach(const struct probe_spec *ps, int fd,
			struct probe_env *env)
{
	return probe_pmu_attach(ps, fd, env, false, false);
}

static const char *watch_explain(const struct probe_spec *ps, int err)
{
	if (err == EINVAL && (ps->bp_type & HW_BREAKPOINT_X) && ps->bp_len != 8)
		return "an execute watchpoint must have length 8 on x86-64";
	if (err == ENOSPC)
		return "no debug register is left (x86-64 has 4 for all watchpoints)";
	return NULL;
}

const struct probe_ops probe_watchpoint_ops = {
	.name = "watchpoint",
	.alias = "w",
	.kind = PK_WATCHPOINT,
	.flags = PF_REGS | PF_TASK,
	.ctx = CTX_PERF,
	.expand = watch_expand,
	.load = watch_load,
	.attach = watch_attach,
	.explain = watch_explain,
};

const struct probe_ops probe_asyncwatch_ops = {
	.name = "asyncwatchpoint",
	.alias = "aw",
	.kind = PK_ASYNCWATCH,
	.flags = PF_REGS | PF_TASK,
	.ctx = CTX_PERF,
	.expand = watch_expand,
	.load = watch_load,
	.attach = watch_attach,
	.explain = watch_explain,
};

/* The block of FUNC+argN: attached by run/ to each address reported */
const struct probe_ops probe_watcharg_ops = {
	.name = "watchpoint",
	.kind = PK_WATCHARG,
	.flags = PF_REGS | PF_TASK | PF_MADE,
	.ctx = CTX_PERF,
	.stage = STAGE_WATCH,
	.load = watch_load,
	.attach = watch_attach,
	.explain = watch_explain,
};

/* The uprobe that reports them (its program is bpf/'s own) */
const struct probe_ops probe_watchsetup_ops = {
	.name = "uprobe",
	.kind = PK_WATCHSETUP,
	.flags = PF_REGS | PF_TASK | PF_USER | PF_LIFO | PF_MADE,
	.ctx = CTX_REGS,
	.load = setup_load,
	.attach = setup_attach,
};
