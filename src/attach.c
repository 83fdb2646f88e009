/* attach.c - probes to programs.  Every attachment is owned by a file
 * descriptor (a perf event or a BPF link), so the kernel detaches
 * everything when sonde exits, even on SIGKILL. */
#include "tracer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void own(struct tracer *t, int fd)
{
	if (t->nattach == t->attach_cap) {
		t->attach_cap = t->attach_cap ? t->attach_cap * 2 : 16;
		t->attach_fds = xrealloc(t->attach_fds, sizeof(int) *
					 (size_t)t->attach_cap);
	}
	t->attach_fds[t->nattach++] = fd;
}

static int perf_open(struct perf_event_attr *attr, int pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Hand PROG to perf event PFD: a BPF link where the kernel has them,
 * the older ioctl otherwise. */
static int perf_attach(struct tracer *t, int pfd, int prog)
{
	int lfd = bpf_link_create(prog, pfd, BPF_PERF_EVENT, NULL);

	if (lfd >= 0) {
		own(t, pfd);
		own(t, lfd);
		return 0;
	}
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog) < 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int err = errno;

		close(pfd);
		return -err;
	}
	own(t, pfd);
	return 0;
}

/* interval: one cpu-clock timer on the first online CPU. */
static int attach_interval(struct tracer *t, struct prog_spec *ps)
{
	struct perf_event_attr attr;
	int pfd, err = ENODEV;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = ps->probe.period_ns;
	attr.freq = 0;
	for (int cpu = 0; cpu < t->ncpus_possible; cpu++) {
		pfd = perf_open(&attr, -1, cpu);
		if (pfd >= 0)
			return perf_attach(t, pfd, ps->fd);
		err = errno;
		if (err != ENODEV && err != EINVAL)
			break;
	}
	return -err;
}

int at_attach(struct tracer *t, struct prog_spec *ps)
{
	int rc = 0;

	switch (ps->probe.kind) {
	case PK_BEGIN: case PK_END:
		return 0;	/* run by the runtime with BPF_PROG_TEST_RUN */
	case PK_INTERVAL:
		rc = attach_interval(t, ps);
		break;
	}
	if (rc < 0)
		fprintf(stderr, "sonde: probe %s: attach failed: %s\n",
			ps->probe.name, strerror(-rc));
	else if (t->verbose)
		fprintf(stderr, "sonde: attached %s\n", ps->probe.name);
	return rc;
}

void at_detach_all(struct tracer *t)
{
	/* Links before their perf events: reverse order. */
	for (int i = t->nattach - 1; i >= 0; i--)
		close(t->attach_fds[i]);
	t->nattach = 0;
}
