/* tpmerge.c - a tracepoint wildcard's many events as few programs, so
 * that leaving is fast: the kernel's perf tracepoint events detach one
 * at a time, each closing waiting for an RCU grace period under its
 * event_mutex (12.6 s for 360 syscalls:sys_enter_*).  A block that reads
 * no args either way sees the same events through:
 *   - syscalls:sys_enter_* / sys_exit_*: one program on the perf event
 *     of raw_syscalls:sys_enter (sys_exit), which selects the calls by
 *     number (bpf/cg_site.c's cg_sys_select());
 *   - other tracepoints: one RAW_TRACEPOINT program on a BPF link per
 *     tracepoint, which detaches without a grace period (114 ext4
 *     events: 5.3 s on perf events, 0.01 s on links).  A block that
 *     reads the probe's name takes it from a table the link's cookie
 *     selects (Linux 6.10); one that reads kstack does not merge (a raw
 *     tracepoint's stack starts two frames higher: the program's and
 *     bpf_trace_run's).
 * What does not merge stays one TRACEPOINT program per event. */
#include "probe/kinds.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/btf.h"
#include "catalog/info.h"
#include "catalog/kconst.h"
#include "catalog/tracefs.h"

/* System calls newer than Debian 12's headers (Linux 6.1), which
 * kconst lacks when sonde is built there: from 424 on, every
 * architecture numbers a new call alike (the kernel's unified
 * numbering); x86-64's own two before.  The ABI never renumbers a call;
 * tests/run/syscall_mux.sh checks each against the running kernel. */
static const struct {
	const char *name;
	int nr;
} newer[] = {
#ifdef __x86_64__
	{ "uretprobe", 335 }, { "uprobe", 336 },
#endif
	{ "cachestat", 451 }, { "fchmodat2", 452 },
	{ "map_shadow_stack", 453 }, { "futex_wake", 454 },
	{ "futex_wait", 455 }, { "futex_requeue", 456 },
	{ "statmount", 457 }, { "listmount", 458 },
	{ "lsm_get_self_attr", 459 }, { "lsm_set_self_attr", 460 },
	{ "lsm_list_modules", 461 }, { "mseal", 462 },
	{ "setxattrat", 463 }, { "getxattrat", 464 },
	{ "listxattrat", 465 }, { "removexattrat", 466 },
	{ "open_tree_attr", 467 }, { "file_getattr", 468 },
	{ "file_setattr", 469 },
};

/* The system call number of syscalls:sys_enter_NAME or sys_exit_NAME
 * (the UAPI's __NR_NAME, catalog/kconst.c, or the table above; a few
 * events are named after the kernel's function, not the call), or -1. */
static int syscall_nr(const char *target)
{
	static const char *const renamed[][2] = {
		{ "newstat", "stat" }, { "newlstat", "lstat" },
		{ "newfstat", "fstat" }, { "newuname", "uname" },
		{ "sendfile64", "sendfile" }, { "umount", "umount2" },
	};
	const char *name = NULL;
	char buf[96];
	int64_t v;

	if (!strncmp(target, "syscalls:sys_enter_", 19))
		name = target + 19;
	else if (!strncmp(target, "syscalls:sys_exit_", 18))
		name = target + 18;
	if (!name)
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(renamed); i++)
		if (!strcmp(name, renamed[i][0]))
			name = renamed[i][1];
	snprintf(buf, sizeof(buf), "__NR_%s", name);
	if (kconst_lookup(buf, &v))
		return v >= 0 && v < SYS_NR_MAX ? (int)v : -1;
	for (size_t i = 0; i < ARRAY_SIZE(newer); i++)
		if (!strcmp(name, newer[i].name))
			return newer[i].nr;
	return -1;
}

/* Many syscalls:sys_enter_* (or sys_exit_*) tracepoints of a block
 * whose body reads no args are one program on raw_syscalls:sys_enter
 * (sys_exit), which selects them by the call's number.  The ones
 * without a known number stay apart (put after the merged ones in V);
 * so does the whole block with --no-feature syscall_mux. */
static struct probe_spec *sys_merge(struct compiler *c, struct probe_spec *v,
				    int n, const char *text)
{
	bool enter = !strncmp(v[0].target, "syscalls:sys_enter_", 19);
	struct probe_spec *ps, tmp;
	struct tp_format raw;
	const char *dir;
	int *nrs, m = 0;

	if (c->no_syscall_mux)
		return NULL;
	dir = c->tracefs ? c->tracefs : tracefs_dir(NULL, NULL);
	if (!dir || tp_read_format(&c->arena, dir, "raw_syscalls",
				   enter ? "sys_enter" : "sys_exit", &raw) ||
	    raw.id < 0)
		return NULL;
	nrs = arena_alloc(&c->arena, sizeof(int) * (size_t)n);
	/* the numbered ones of v[0]'s direction first; the others (the
	 * other direction, other tracepoints) are merged or not next */
	for (int i = 0; i < n; i++) {
		int nr = strncmp(v[i].target, enter ? "syscalls:sys_enter_" :
				 "syscalls:sys_exit_", enter ? 19 : 18) ? -1 :
			 syscall_nr(v[i].target);

		if (nr < 0)
			continue;
		tmp = v[m];
		v[m] = v[i];
		v[i] = tmp;
		nrs[m++] = nr;
	}
	if (m < 2)
		return NULL;
	ps = arena_alloc(&c->arena, sizeof(*ps));
	*ps = v[0];
	ps->target = enter ? "raw_syscalls:sys_enter" : "raw_syscalls:sys_exit";
	ps->tp_id = raw.id;
	ps->nmulti = m;
	ps->parts = v;
	ps->sys_nrs = nrs;
	ps->name = arena_printf(&c->arena, "%s (%d system calls on %s)", text,
				m, ps->target);
	if (c->verbose)
		for (int i = m; i < n; i++)
			if (!strncmp(v[i].target, enter ? "syscalls:sys_enter_" :
				     "syscalls:sys_exit_", enter ? 19 : 18))
				fprintf(stderr, "sonde: %s: %s has no known system call number: one program of its own\n",
					text, v[i].target);
	return ps;
}


/* The raw tracepoints BTF declares (its btf_trace_NAME typedefs), of
 * vmlinux and of the modules the categories of V name: a tracepoint
 * event with one is a raw tracepoint of the same name. */
struct rawset {
	struct strmap names;
	struct arena *arena;
};

static void put_name(void *arg, const char *name)
{
	struct rawset *r = arg;

	strmap_put(&r->names, r->arena, arena_strdup(r->arena, name),
		   (void *)1);
}

static void raw_names(struct compiler *c, const struct probe_spec *v, int n,
		      struct rawset *r)
{
	struct strmap mods = { 0 };

	r->arena = &c->arena;
	btf_raw_tracepoints(c, "*", put_name, r);
	for (int i = 0; i < n; i++) {
		const char *colon = strchr(v[i].target, ':');
		char *mod;

		if (!colon)
			continue;
		mod = arena_strndup(&c->arena, v[i].target,
				    (size_t)(colon - v[i].target));
		if (strmap_get(&mods, mod) || strmap_get(&r->names, colon + 1))
			continue;
		strmap_put(&mods, &c->arena, mod, (void *)1);
		btf_module_raw_tracepoints(c, mod, "*", put_name, r);
	}
}

/* Events the kernel refuses to perf on purpose (TRACE_EVENT_PERF_PERM):
 * x86's irq_work_exit, since a sample's wakeup is itself an irq_work,
 * whose exit would fire again, without end.  A program's ring buffer
 * record wakes its reader the same way, so these stay perf events and
 * fail as they always did, not raw tracepoints that loop. */
static bool perf_only(const char *target)
{
	return !strcmp(target, "irq_vectors:irq_work_exit");
}

/* A wildcard's other tracepoints (not syscalls:*) whose block reads no
 * args nor kstack: one RAW_TRACEPOINT program attached to each as a
 * raw tracepoint (ps->multi: their names); those BTF does not declare
 * stay apart, after the merged ones in V.  Not with --no-feature
 * tracepoint_raw; not for a block reading the probe's name where raw
 * tracepoint links carry no cookie (before Linux 6.10). */
static struct probe_spec *raw_merge(struct compiler *c, struct probe_spec *v,
				    int n, unsigned need, const char *text)
{
	struct rawset r = { 0 };
	struct probe_spec *ps, tmp;
	int m = 0;

	if (c->no_tracepoint_raw || (need & MERGE_KSTACK))
		return NULL;
	if (need & MERGE_NAMES) {
		if (c->rawtp_cookie < 0)
			c->rawtp_cookie = info_rawtp_cookie();
		if (!c->rawtp_cookie)
			return NULL;
	}
	raw_names(c, v, n, &r);
	for (int i = 0; i < n; i++) {
		const char *colon = strchr(v[i].target, ':');

		if (!colon || !strncmp(v[i].target, "syscalls:", 9) ||
		    perf_only(v[i].target) || !strmap_get(&r.names, colon + 1))
			continue;
		tmp = v[m];
		v[m++] = v[i];
		v[i] = tmp;
	}
	if (m < 2)
		return NULL;
	ps = arena_alloc(&c->arena, sizeof(*ps));
	*ps = v[0];
	ps->multi = arena_alloc(&c->arena, sizeof(char *) * (size_t)m);
	for (int i = 0; i < m; i++)
		ps->multi[i] = strchr(v[i].target, ':') + 1;
	ps->nmulti = m;
	ps->parts = need & MERGE_NAMES ? v : NULL;
	ps->name = arena_printf(&c->arena, "%s (%d raw tracepoints)", text, m);
	if (c->verbose)
		for (int i = m; i < n; i++)
			fprintf(stderr, "sonde: %s: %s is no raw tracepoint BTF knows: its perf event\n",
				text, v[i].target);
	return ps;
}

struct probe_spec *tp_merge(struct compiler *c, struct probe_spec *v, int n,
			    unsigned need, const char *text)
{
	if (v[0].ops->kind != PK_TRACEPOINT)
		return NULL;
	if (!strncmp(v[0].target, "syscalls:sys_enter_", 19) ||
	    !strncmp(v[0].target, "syscalls:sys_exit_", 18))
		return sys_merge(c, v, n, text);
	return raw_merge(c, v, n, need, text);
}

int tp_raw_attach(const struct probe_spec *ps, int fd, struct probe_env *env)
{
	for (int i = 0; i < ps->nmulti; i++) {
		/* the cookie: the part's row of the names */
		int lfd = info_rawtp_open(fd, ps->multi[i],
					  ps->parts ? (uint64_t)i : 0);

		if (lfd < 0) {
			snprintf(env->failed, sizeof(env->failed), "%s",
				 ps->parts ? ps->parts[i].name : ps->multi[i]);
			return lfd;
		}
		probe_own_link(env, lfd);
	}
	return 0;
}
