/* attach.c - probes to programs.  Every attachment is owned by a file
 * descriptor (a perf event or a BPF link), so the kernel detaches
 * everything when sonde exits, even on SIGKILL. */
#include "run/tracer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "catalog/info.h"

/* internal: the kernel has no kprobe PMU */
#define EKPROBES 10001

static void push_fd(int **fds, int *n, int *cap, int fd)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*fds = xrealloc(*fds, sizeof(int) * (size_t)*cap);
	}
	(*fds)[(*n)++] = fd;
}

/* FD runs a program: a BPF link, or a perf event given its program by
 * ioctl.  Closing it stops the program. */
static void own(struct tracer *t, int fd)
{
	push_fd(&t->attach_fds, &t->nattach, &t->attach_cap, fd);
}

/* FD is a perf event whose program a link runs: closed after the
 * links (see at_detach_all). */
static void own_event(struct tracer *t, int fd)
{
	push_fd(&t->event_fds, &t->nevent, &t->event_cap, fd);
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
		own_event(t, pfd);
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

/* One perf event per online CPU (profile, software, hardware). */
static int attach_percpu(struct tracer *t, struct prog_spec *ps)
{
	struct perf_event_attr attr;
	int opened = 0, err = 0;

	memset(&attr, 0, sizeof(attr));
	attr.type = ps->probe.perf_type;
	attr.size = sizeof(attr);
	attr.config = ps->probe.perf_config;
	attr.freq = ps->probe.freq;
	if (ps->probe.freq)
		attr.sample_freq = ps->probe.sample;
	else
		attr.sample_period = ps->probe.sample;
	for (int cpu = 0; cpu < t->ncpus_possible; cpu++) {
		int pfd = perf_open(&attr, -1, cpu);

		if (pfd < 0) {
			if (errno == ENODEV)	/* offline CPU */
				continue;
			return -errno;
		}
		err = perf_attach(t, pfd, ps->fd);
		if (err)
			return err;
		opened++;
	}
	return opened ? 0 : -ENODEV;
}

/* A tracepoint: one perf event; the kernel runs the program for the
 * tracepoint on every CPU. */
static int attach_tracepoint(struct tracer *t, struct prog_spec *ps)
{
	struct perf_event_attr attr;
	int pfd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = (uint64_t)ps->probe.tp_id;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = perf_open(&attr, -1, 0);
	if (pfd < 0)
		return -errno;
	return perf_attach(t, pfd, ps->fd);
}

static int attach_rawtp(struct tracer *t, struct prog_spec *ps)
{
	/* a tp_btf program knows its tracepoint from its BTF id */
	int fd = bpf_raw_tracepoint_open(ps->probe.tp_btf ? NULL : ps->probe.target,
					 ps->fd);

	if (fd < 0)
		return -errno;
	own(t, fd);
	return 0;
}

/* A hardware breakpoint in the traced process (any CPU). */
static int attach_watchpoint(struct tracer *t, struct prog_spec *ps)
{
	struct perf_event_attr attr;
	int pid = t->target_pid ? t->target_pid : t->child_pid;
	int pfd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_addr = ps->probe.bp_addr;
	attr.bp_len = (uint64_t)ps->probe.bp_len;
	attr.bp_type = (uint32_t)ps->probe.bp_type;
	attr.sample_period = 1;
	/* precise_ip 0: with it set, bpf_get_stackid (kstack) needs a
	 * callchain in the sample and the link fails with EPROTO */
	attr.precise_ip = 0;
	pfd = perf_open(&attr, pid, -1);
	if (pfd < 0)
		return -errno;
	return perf_attach(t, pfd, ps->fd);
}

/* A number from /sys/bus/event_source/devices/FILE: a PMU's type, or
 * the config bit of "retprobe" (format: "config:0"). */
static int uprobe_sysfs(const char *file, const char *prefix)
{
	char path[128], *text;
	size_t len;
	int v = -1;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", file);
	if (read_file(path, &text, &len))
		return -1;
	if (!strncmp(text, prefix, strlen(prefix)))
		v = atoi(text + strlen(prefix));
	free(text);
	return v;
}

/* A uprobe or kprobe through the perf "uprobe"/"kprobe" PMU: no tracefs
 * entry to clean up, and the perf event fd owns it.  Uprobes and usdt
 * probes fire only in -p's process, or in -c's command, as bpftrace
 * does.  A usdt probe's semaphore is the uprobe's reference counter
 * (ref_ctr_offset, format "config:32-63"): the kernel increments it in
 * each process while the probe is attached, so sonde never writes into
 * the traced process. */
static int attach_uprobe(struct tracer *t, struct prog_spec *ps)
{
	struct perf_event_attr attr;
	bool kernel = ps->probe.kind == PK_KPROBE || ps->probe.kind == PK_KRETPROBE;
	const char *pmu = kernel ? "kprobe" : "uprobe";
	char file[64];
	int type, bit, pfd;
	int pid = !kernel && t->target_pid > 0 ? t->target_pid : -1;

	snprintf(file, sizeof(file), "%s/type", pmu);
	type = uprobe_sysfs(file, "");
	if (!kernel && pid < 0 && t->child_pid > 0)
		pid = t->child_pid;

	if (type < 0)
		return kernel ? -EKPROBES : -ENOTSUP;
	memset(&attr, 0, sizeof(attr));
	attr.type = (uint32_t)type;
	attr.size = sizeof(attr);
	if (ps->probe.kind == PK_URETPROBE || ps->probe.kind == PK_KRETPROBE) {
		snprintf(file, sizeof(file), "%s/format/retprobe", pmu);
		bit = uprobe_sysfs(file, "config:");
		if (bit < 0)
			return -ENOTSUP;
		attr.config |= 1ULL << bit;
	}
	if (ps->probe.ref_ctr_offset) {
		bit = uprobe_sysfs("uprobe/format/ref_ctr_offset", "config:");
		if (bit < 0)
			return -ENOTSUP;
		if (bit < 1 || bit > 63 || ps->probe.ref_ctr_offset >> (64 - bit))
			return -EFBIG;	/* the field holds 32 bits */
		attr.config |= ps->probe.ref_ctr_offset << bit;
	}
	if (kernel)	/* kprobe_func, probe_offset */
		attr.config1 = (uint64_t)(uintptr_t)ps->probe.func;
	else		/* uprobe_path, probe_offset */
		attr.config1 = (uint64_t)(uintptr_t)ps->probe.path;
	attr.config2 = ps->probe.uoffset;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = perf_open(&attr, pid, pid > 0 ? -1 : 0);
	if (pfd < 0)
		return -errno;
	return perf_attach(t, pfd, ps->fd);
}

/* All the functions of a kprobe wildcard through one kprobe_multi link. */
static int attach_kprobe_multi(struct tracer *t, struct prog_spec *ps)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	int fd;

	opts.kprobe_multi.syms = ps->probe.multi;
	opts.kprobe_multi.cnt = (uint32_t)ps->probe.nmulti;
	opts.kprobe_multi.flags = ps->probe.kind == PK_KRETPROBE ?
				  BPF_F_KPROBE_MULTI_RETURN : 0;
	fd = bpf_link_create(ps->fd, 0, BPF_TRACE_KPROBE_MULTI, &opts);
	if (fd < 0)
		return -errno;
	own(t, fd);
	return 0;
}

/* Offsets [LO, HI) of a uprobe_multi program on one link.  The kernel
 * refuses the whole link if it cannot probe one function (ENOTSUPP: a
 * lock-prefixed first instruction, as pthread_spin_lock's in libc;
 * EINVAL), so a refused range is halved until the functions at fault
 * stand alone: their errno goes in BAD, and the others attach on links
 * of their own.  Other errors concern them all and are returned. */
static int umulti_range(struct tracer *t, struct prog_spec *ps, int pid,
			int lo, int hi, int *bad, int *nok)
{
	int fd = info_uprobe_multi_link(ps->fd, ps->probe.path,
					ps->probe.umulti + lo, (uint32_t)(hi - lo),
					ps->probe.kind == PK_URETPROBE, pid);
	int mid, rc;

	if (fd >= 0) {
		own(t, fd);
		*nok += hi - lo;
		return 0;
	}
	if (fd != -524 && fd != -EOPNOTSUPP && fd != -EINVAL)
		return fd;
	if (hi - lo == 1) {
		bad[lo] = -fd;
		return 0;
	}
	mid = lo + (hi - lo) / 2;
	rc = umulti_range(t, ps, pid, lo, mid, bad, nok);
	return rc ? rc : umulti_range(t, ps, pid, mid, hi, bad, nok);
}

static const char *explain(struct prog_spec *ps, int err);

/* The functions of one file through one uprobe_multi link (or a few,
 * around functions the kernel cannot probe, which are skipped with a
 * warning, as a wildcard's unattachable probes are); in -p's process
 * or -c's command only, as single uprobes. */
static int attach_uprobe_multi(struct tracer *t, struct prog_spec *ps)
{
	int pid = t->target_pid ? t->target_pid : t->child_pid;
	int n = ps->probe.nmulti, nok = 0, rc;
	int *bad = xcalloc((size_t)n, sizeof(*bad));

	rc = umulti_range(t, ps, pid, 0, n, bad, &nok);
	for (int i = 0; !rc && i < n; i++) {
		if (!bad[i])
			continue;
		if (!nok) {	/* none attached: the first one's reason */
			rc = -bad[i];
			break;
		}
		/* as runtime.c says it of a single probe */
		fprintf(stderr, "sonde: probe %s:%s:%s: attach failed: %s\n"
			"sonde: warning: skipping %s:%s:%s\n",
			ps->probe.kind == PK_URETPROBE ? "uretprobe" : "uprobe",
			ps->probe.path, ps->probe.multi[i], explain(ps, bad[i]),
			ps->probe.kind == PK_URETPROBE ? "uretprobe" : "uprobe",
			ps->probe.path, ps->probe.multi[i]);
	}
	free(bad);
	return rc;
}

/* fentry/fexit: a BPF trampoline, owned by its link fd. */
static int attach_trampoline(struct tracer *t, struct prog_spec *ps)
{
	int fd = bpf_raw_tracepoint_open(NULL, ps->fd);

	if (fd < 0)
		return -errno;
	own(t, fd);
	return 0;
}

/* Why an attach failed, in one sentence, where errno alone would be
 * cryptic. */
static const char *explain(struct prog_spec *ps, int err)
{
	if (ps->probe.kind == PK_HARDWARE &&
	    (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL))
		return "this machine has no hardware performance counters (no PMU, as in most virtual machines); software:cpu-clock or profile probes sample instead";
	if (err == EKPROBES)
		return "this kernel has no kprobe support (CONFIG_KPROBES is off); tracepoint and fentry probes may work instead";
	if ((ps->probe.kind == PK_FENTRY || ps->probe.kind == PK_FEXIT) &&
	    (err == ENOTSUP || err == EOPNOTSUPP || err == 524 || err == EINVAL))
		return "this kernel cannot attach fentry/fexit programs (no BPF trampoline); kprobe or tracepoint probes may work instead";
	if ((err == EPERM || err == EACCES) && info_missing_caps())
		return !strcmp(info_missing_caps(), "CAP_BPF") ?
		       "permission denied: attaching needs CAP_BPF, which this process lacks" :
		       "permission denied: tracing needs CAP_PERFMON, which this process lacks";
	if (err == EPERM || err == EACCES)
		return "the kernel refuses to attach to it (permission denied even for root)";
	if (ps->probe.kind == PK_WATCHPOINT && err == EINVAL &&
	    (ps->probe.bp_type & HW_BREAKPOINT_X) && ps->probe.bp_len != 8)
		return "an execute watchpoint must have length 8 on x86-64";
	if (err == EBUSY)
		return "the probe is busy (another tracer holds it exclusively)";
	/* ENOTSUPP, the kernel's own 524, from the uprobe instruction
	 * decoder */
	if ((ps->probe.kind == PK_UPROBE || ps->probe.kind == PK_URETPROBE ||
	     ps->probe.kind == PK_USDT) && (err == 524 || err == EOPNOTSUPP))
		return "the kernel cannot put a uprobe on this instruction (a lock-prefixed one, for instance)";
	return strerror(err);
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
	case PK_PROFILE: case PK_SOFTWARE: case PK_HARDWARE:
		rc = attach_percpu(t, ps);
		break;
	case PK_TRACEPOINT:
		rc = attach_tracepoint(t, ps);
		break;
	case PK_RAWTP:
		rc = attach_rawtp(t, ps);
		break;
	case PK_WATCHPOINT:
		rc = attach_watchpoint(t, ps);
		break;
	case PK_ITER:
		return 0;	/* run by the runtime once BEGIN ran */
	case PK_UPROBE: case PK_URETPROBE: case PK_KPROBE: case PK_KRETPROBE:
	case PK_USDT:
		rc = ps->probe.umulti ? attach_uprobe_multi(t, ps) :
		     ps->probe.multi ? attach_kprobe_multi(t, ps) :
		     attach_uprobe(t, ps);
		break;
	case PK_FENTRY: case PK_FEXIT:
		rc = attach_trampoline(t, ps);
		break;
	}
	if (rc < 0)
		fprintf(stderr, "sonde: probe %s: attach failed: %s\n",
			ps->probe.name, explain(ps, -rc));
	else if (t->verbose)
		fprintf(stderr, "sonde: attached %s\n", ps->probe.name);
	return rc;
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
	int n = t->nattach;

	close_all(t->attach_fds, n);
	t->nattach = 0;
	if (t->verbose && n)
		fprintf(stderr, "sonde: detached %d probe%s in %.2f s\n", n,
			n == 1 ? "" : "s", now_s() - t0);
}

/* After at_detach_all(): nothing runs a program any more. */
void at_close_events(struct tracer *t)
{
	double t0 = now_s();
	int n = t->nevent;

	close_all(t->event_fds, n);
	t->nevent = 0;
	if (t->verbose && n)
		fprintf(stderr, "sonde: closed %d perf event%s in %.2f s\n", n,
			n == 1 ? "" : "s", now_s() - t0);
}
