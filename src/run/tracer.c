/* tracer.c - the tracer's life: everything run/ opens is closed here,
 * on every path, whatever state setup stopped in. */
#include "run/tracer.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out/usyms.h"
#include "run/unwind.h"

void tracer_init(struct tracer *t, struct compiler *c, FILE *out)
{
	memset(t, 0, sizeof(*t));
	t->c = c;
	t->pr.c = c;
	t->pr.out = out;
	t->scratch_fd = t->stats_fd = -1;
	t->rb.fd = -1;
	t->useen_fd = -1;
	for (int i = 0; i < 4; i++)
		t->unw_fds[i] = -1;
	t->skb_fd = -1;
	t->child_go = -1;
	pthread_mutex_init(&t->print_lock, NULL);
	/* Each probe holds a program and a perf event or link: a wildcard
	 * over 1,000 kernel functions needs 2,000 descriptors, past the
	 * usual soft limit of 1,024 (bpftrace raises it too). */
	if (!getrlimit(RLIMIT_NOFILE, &t->nofile) &&
	    t->nofile.rlim_cur < t->nofile.rlim_max) {
		struct rlimit r = t->nofile;

		r.rlim_cur = r.rlim_max;
		setrlimit(RLIMIT_NOFILE, &r);
	}
}

/* A command never released sees its pipe close and exits; one still
 * running when the script ends is stopped, as in bpftrace: now, not
 * after the slow close of the perf events. */
static void end_child(struct tracer *t)
{
	if (t->child_go >= 0) {
		close(t->child_go);
		t->child_go = -1;
		if (t->child_pid > 0 && !t->child_done)
			waitpid(t->child_pid, NULL, 0);
	} else if (t->child_pid > 0 && !t->child_done) {
		kill(t->child_pid, SIGTERM);
		waitpid(t->child_pid, NULL, 0);
	}
	t->child_done = true;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void tracer_close(struct tracer *t)
{
	struct compiler *c = t->c;

	rt_metrics_stop(t);	/* before what it reads goes */
	rb_ready(&t->rb);
	at_detach_all(t);
	end_child(t);
	at_close_events(t);
	rt_watch_close(t);
	rt_spec_close(t);
	rb_close(&t->rb);
	if (t->out0) {		/* freopen()'s file, then the output before */
		fclose(t->pr.out);
		t->pr.out = t->out0;
		t->out0 = NULL;
	}
	rt_skb_close(t);
	for (int i = 0; c && i < c->nprogs; i++) {
		close_fd(&c->progs[i].fd);
		close_fd(&c->progs[i].sites_fd);
		close_fd(&c->progs[i].sysnr_fd);
	}
	for (int i = 0; c && i < c->nmaps; i++)
		close_fd(&c->maps[i]->fd);
	close_fd(&t->scratch_fd);
	close_fd(&t->stats_fd);
	close_fd(&t->useen_fd);
	us_free(t->pr.usyms);
	t->pr.usyms = NULL;
	free(t->env.links);
	t->env.links = NULL;
	free(t->env.events);
	t->env.events = NULL;
	free(t->drops_seen);
	t->drops_seen = NULL;
	for (int i = 0; c && t->stack_fds && i < c->nstack_maps; i++)
		close_fd(&t->stack_fds[i]);
	free(t->stack_fds);
	t->stack_fds = NULL;
	for (int i = 0; c && t->dwstack_fds && i < c->nstack_maps; i++)
		close_fd(&t->dwstack_fds[i]);
	free(t->dwstack_fds);
	t->dwstack_fds = NULL;
	unw_free(t->unw);
	t->unw = NULL;
	t->pr.stack_fds = NULL;
	pr_free(&t->pr);
	free(t->err);
	t->err = NULL;
}
