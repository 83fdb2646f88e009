/* attach.c - programs to their probes, through each kind's attach
 * operation (probe/), and away again.  Every attachment is owned by a
 * file descriptor (a perf event or a BPF link), so the kernel detaches
 * everything when sonde exits, even on SIGKILL. */
#include "run/tracer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* The warnings of an attach operation (a function of a uprobe_multi
 * set skipped), said at once. */
static void warn(void *arg, const char *msg)
{
	struct tracer *t = arg;

	if (!t->no_warnings)
		rt_warn(t, "%s", msg);
}

/* Attach PS; on failure t->err names the probe and why. */
static int attach(struct tracer *t, struct prog_spec *ps)
{
	int rc;

	t->env.failed[0] = 0;
	rc = ps->probe.ops->attach(&ps->probe, ps->fd, &t->env);
	if (rc < 0)	/* the function of a set that failed, or the probe */
		return rt_fail(t, rc, "probe %s: attach failed: %s",
			       t->env.failed[0] ? t->env.failed :
			       ps->probe.name, probe_explain(&ps->probe, -rc));
	if (t->verbose)
		rt_warn(t, "attached %s", ps->probe.name);
	return 0;
}

int at_count(const struct tracer *t)
{
	const struct compiler *c = t->c;
	int n = 0;

	/* a kprobe_multi or uprobe_multi program counts each function;
	 * a FUNC+argN watchpoint counts its uprobe, as in bpftrace */
	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].probe.ops->stage != STAGE_WATCH)
			n += c->progs[i].probe.nmulti ?
			     c->progs[i].probe.nmulti : 1;
	return n;
}

/* BPFTRACE_MAX_PROBES and BPFTRACE_MAX_BPF_PROGS, before anything is
 * loaded, in bpftrace's words. */
int at_check_limits(struct tracer *t)
{
	int nprobes = at_count(t);

	if (nprobes > t->max_probes)
		return rt_fail(t, E2BIG, "Can't attach to %d probes because it exceeds the current limit of %d probes.\nYou can increase the limit through the BPFTRACE_MAX_PROBES environment variable, but BE CAREFUL since a high number of probes attached can cause your system to crash.",
			       nprobes, t->max_probes);
	if (t->c->nprogs > t->max_progs)
		return rt_fail(t, E2BIG, "Your program is trying to generate %d BPF programs, which exceeds the current limit of %d.\nYou can increase the limit through the BPFTRACE_MAX_BPF_PROGS environment variable.",
			       t->c->nprogs, t->max_progs);
	return 0;
}

int at_attach_all(struct tracer *t, int nprobes)
{
	struct compiler *c = t->c;
	/* D: a function of a wildcard the kernel cannot probe is left
	 * out silently, as dtrace makes no probe for it */
	int nskipped = 0, missing = c->missing_probes < 0 ?
				    (c->lang_d ? 2 : c->dialect_017 ? 1 : 0) :
				    c->missing_probes;

	t->env.pid = t->target_pid ? t->target_pid : t->child_pid;
	t->env.ncpus = t->pr.ncpus_possible;
	t->env.verbose = t->verbose;
	t->env.warn = warn;
	t->env.warn_arg = t;
	t->env.missing = missing;
	/* in the order written, but the kinds whose programs of one point
	 * the kernel runs newest first last first: the block written
	 * first fires first, as in bpftrace */
	for (int k = 0; k < 2 * c->nprogs; k++) {
		int i = k < c->nprogs ? k : 2 * c->nprogs - 1 - k;
		struct prog_spec *ps = &c->progs[i];
		bool lifo = probe_has(&ps->probe, PF_LIFO);
		int rc;

		if (ps->probe.ops->stage != STAGE_ATTACH ||
		    lifo != (k >= c->nprogs))
			continue;	/* run by the runtime, or not yet */
		rc = attach(t, ps);
		if (rc && (!ps->probe.wild || !missing))
			return rc;
		if (!rc)
			continue;
		/* one probe of a wildcard the kernel refuses is skipped,
		 * as bpftrace 0.17 does, or with missing_probes = "warn"
		 * or "ignore"; the script runs on the others */
		if (!t->no_warnings && missing == 1) {
			rt_warn(t, "%s", t->err);
			rt_warn(t, "warning: skipping %s", ps->probe.name);
		}
		free(t->err);
		t->err = NULL;
		nskipped += ps->probe.nmulti ? ps->probe.nmulti : 1;
	}
	if (nskipped && nskipped == nprobes)
		return rt_fail(t, ENOENT, "no probe could be attached");
	return 0;
}

#define MAX_CLOSERS 64

struct closer {
	const int *fds;
	int n, step, first;
};

static void *close_some(void *arg)
{
	struct closer *cl = arg;

	for (int i = cl->first; i < cl->n; i += cl->step)
		close(cl->fds[i]);
	return NULL;
}

/* Close N fds from up to 64 threads (one per 4 fds): closes that wait
 * in the kernel for an RCU grace period then share one instead of
 * waiting their turn. */
static void close_all(const int *fds, int n)
{
	int nthreads = n / 4, started = 0;
	pthread_t tid[MAX_CLOSERS];
	struct closer cl[MAX_CLOSERS];

	if (nthreads > MAX_CLOSERS)
		nthreads = MAX_CLOSERS;
	if (nthreads < 2) {
		for (int i = n - 1; i >= 0; i--)
			close(fds[i]);
		return;
	}
	for (int k = 0; k < nthreads; k++) {
		cl[k] = (struct closer){ fds, n, nthreads, k };
		if (pthread_create(&tid[k], NULL, close_some, &cl[k]))
			break;
		started++;
	}
	for (int k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	/* whatever a failed thread start left open */
	for (int k = started; k < nthreads; k++)
		close_some(&cl[k]);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Stop every program: close the links, and the perf events given a
 * program by ioctl.  This is quick: a link's close waits for an RCU
 * grace period, and 64 threads share one.  Closing a tracepoint's or
 * uprobe's perf event is the slow part (each unregisters its probe and
 * waits for grace periods under a kernel mutex, 35 ms for a syscall
 * tracepoint, 85 ms for a uprobe, one after the other), so the perf
 * events that links hold are left to at_close_events(): the maps stop
 * changing at once and print without waiting for it. */
void at_detach_all(struct tracer *t)
{
	double t0 = now_s();
	int n = t->env.nlinks;

	close_all(t->env.links, n);
	t->env.nlinks = 0;
	rt_watch_detach(t);
	if (t->verbose && n)
		rt_warn(t, "detached %d probe%s in %.2f s", n, n == 1 ? "" : "s",
			now_s() - t0);
}

/* After at_detach_all(): nothing runs a program any more. */
void at_close_events(struct tracer *t)
{
	double t0 = now_s();
	int n = t->env.nevents;

	close_all(t->env.events, n);
	t->env.nevents = 0;
	if (t->verbose && n)
		rt_warn(t, "closed %d perf event%s in %.2f s", n,
			n == 1 ? "" : "s", now_s() - t0);
}
