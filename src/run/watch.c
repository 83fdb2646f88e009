/* watch.c - the watchpoints of FUNC+argN probes, set and removed while
 * the script runs.  A FUNC+argN probe's uprobe reports each address
 * FUNC receives (EVID_WATCH, bpf/cg.c), the process stopped unless the
 * probe is async; here the block's program is attached to a hardware
 * breakpoint on that address (through the kind's attach operation,
 * probe/watch.c), then the process continues.  unwatch(addr) closes the
 * breakpoints on ADDR, which gives their debug registers back. */
#include "run/tracer.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One breakpoint: the fds its attach opened. */
struct watch {
	int prog;		/* index in compiler.progs */
	uint64_t addr;
	int *links, nlinks;	/* close first: they run the program */
	int *events, nevents;	/* the perf events links hold */
};

static void close_links(struct watch *w)
{
	for (int i = 0; i < w->nlinks; i++)
		close(w->links[i]);
	w->nlinks = 0;
}

static void close_events(struct watch *w)
{
	for (int i = 0; i < w->nevents; i++)
		close(w->events[i]);
	w->nevents = 0;
}

static bool watching(const struct tracer *t, int prog, uint64_t addr)
{
	for (int i = 0; i < t->nwatches; i++)
		if (t->watches[i].prog == prog && t->watches[i].addr == addr)
			return true;
	return false;
}

/* Attach program PROG to a breakpoint on ADDR; a warning if it cannot
 * be, as in bpftrace, which goes on without it. */
static void watch(struct tracer *t, int prog, uint64_t addr)
{
	struct prog_spec *ps = &t->c->progs[prog];
	struct probe_spec at = ps->probe;
	struct probe_env env = t->env;
	struct watch *w;
	int rc;

	if (watching(t, prog, addr))
		return;
	at.bp_addr = addr;
	env.links = env.events = NULL;
	env.nlinks = env.links_cap = env.nevents = env.events_cap = 0;
	rc = at.ops->attach(&at, ps->fd, &env);
	if (rc == -ENOSPC) {
		/* bpftrace 0.17's words, then which */
		rt_warn(t, "warning: Failed to attach watchpoint probe. You are out of watchpoint registers. (%s at 0x%llx)",
			at.name, (unsigned long long)addr);
	} else if (rc < 0) {
		rt_warn(t, "warning: probe %s: watching 0x%llx failed: %s",
			at.name, (unsigned long long)addr,
			probe_explain(&at, -rc));
	}
	if (rc < 0) {
		free(env.links);
		free(env.events);
		return;
	}
	if (t->verbose)
		rt_warn(t, "watching 0x%llx for %s", (unsigned long long)addr,
			at.name);
	if (t->nwatches == t->watches_cap) {
		t->watches_cap = t->watches_cap ? 2 * t->watches_cap : 8;
		t->watches = xrealloc(t->watches, sizeof(*t->watches) *
				      (size_t)t->watches_cap);
	}
	w = &t->watches[t->nwatches++];
	w->prog = prog;
	w->addr = addr;
	w->links = env.links;
	w->nlinks = env.nlinks;
	w->events = env.events;
	w->nevents = env.nevents;
}

void rt_watch(struct tracer *t, const uint8_t *rec, size_t size)
{
	struct compiler *c = t->c;
	uint64_t prog, addr, tgid;

	if (size < 32)
		return;
	memcpy(&prog, rec + 8, 8);
	memcpy(&addr, rec + 16, 8);
	memcpy(&tgid, rec + 24, 8);
	if (prog >= (uint64_t)c->nprogs ||
	    c->progs[prog].probe.ops->stage != STAGE_WATCH)
		return;
	if (!t->exiting)
		watch(t, (int)prog, addr);
	/* the uprobe stopped it: let it go on, watched or not */
	if (!c->progs[prog].probe.watch_async && tgid > 0 &&
	    kill((pid_t)tgid, SIGCONT) != 0 && errno != ESRCH)
		rt_warn(t, "warning: cannot continue process %llu (SIGCONT): %s",
			(unsigned long long)tgid, strerror(errno));
}

void rt_unwatch(struct tracer *t, uint64_t addr)
{
	int k = 0;

	/* silent when nothing watches ADDR, as in bpftrace */
	for (int i = 0; i < t->nwatches; i++) {
		struct watch *w = &t->watches[i];

		if (w->addr != addr) {
			t->watches[k++] = *w;
			continue;
		}
		close_links(w);
		close_events(w);
		free(w->links);
		free(w->events);
		if (t->verbose)
			rt_warn(t, "unwatched 0x%llx", (unsigned long long)addr);
	}
	t->nwatches = k;
}

/* Is process PID stopped (state T in /proc/PID/stat)? */
static bool stopped(int pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	bool st = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		st = p[1] == ' ' && p[2] == 'T';
	fclose(f);
	return st;
}

/* A synchronous FUNC+argN probe may have stopped the process just
 * before the end, its record never read: let it go on (before -c's
 * command is ended and waited for).  Its uprobe is detached by then. */
static void release(struct tracer *t)
{
	const struct compiler *c = t->c;
	int pid = t->env.pid;

	if (pid <= 0 || (pid == t->child_pid && t->child_done) ||
	    !stopped(pid))
		return;
	for (int i = 0; c && i < c->nprogs; i++)
		if (c->progs[i].probe.ops->stage == STAGE_WATCH &&
		    !c->progs[i].probe.watch_async) {
			kill(pid, SIGCONT);
			return;
		}
}

void rt_watch_detach(struct tracer *t)
{
	for (int i = 0; i < t->nwatches; i++)
		close_links(&t->watches[i]);
	release(t);
}

void rt_watch_close(struct tracer *t)
{
	for (int i = 0; i < t->nwatches; i++) {
		close_links(&t->watches[i]);
		close_events(&t->watches[i]);
		free(t->watches[i].links);
		free(t->watches[i].events);
	}
	free(t->watches);
	t->watches = NULL;
	t->nwatches = t->watches_cap = 0;
}
