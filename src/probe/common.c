/* common.c - what the probe families share: making specs while a kind
 * expands, reading numbers and wildcards in specs, and the perf event
 * plumbing of the run-time operations. */
#include "probe/probe.h"

#include <bpf/bpf.h>
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "catalog/info.h"

struct probe_spec *probe_add(struct probe_exp *x)
{
	if (x->n == x->cap) {
		struct probe_spec *v;

		x->cap = x->cap ? x->cap * 2 : 1;	/* most points name one probe */
		v = arena_alloc(&x->c->arena, sizeof(*v) * (size_t)x->cap);
		if (x->n)
			memcpy(v, x->v, sizeof(*v) * (size_t)x->n);
		x->v = v;
	}
	memset(&x->v[x->n], 0, sizeof(x->v[0]));
	x->v[x->n].ops = x->ops;
	x->v[x->n].loc = x->loc;
	return &x->v[x->n++];
}

void probe_error(struct probe_exp *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_verror(&x->c->diag, x->loc, E_PROBE, fmt, ap);
	va_end(ap);
}

void probe_missing(struct probe_exp *x, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	x->missing = arena_strdup(&x->c->arena, buf);
}

bool probe_wild(const char *text)
{
	return strpbrk(text, "*?[") != NULL;
}

int probe_u64(const char *s, uint64_t *v)
{
	uint64_t n = 0;
	int digits = 0;

	/* 1000, 1_000, 1e3 */
	for (; isdigit((unsigned char)*s) || (*s == '_' && digits); s++) {
		if (*s == '_')
			continue;
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*s - '0');
		digits++;
	}
	if (digits && (*s == 'e' || *s == 'E') && isdigit((unsigned char)s[1])) {
		int e = 0;

		for (s++; isdigit((unsigned char)*s) && e < 30; s++)
			e = e * 10 + (*s - '0');
		while (e-- > 0) {
			if (n > UINT64_MAX / 10)
				return -1;
			n *= 10;
		}
	}
	*v = n;
	return digits && !*s ? 0 : -1;
}

int probe_func_offset(struct probe_exp *x, char *fname, uint64_t *add)
{
	bool ret = x->ops->flags & PF_RETVAL;
	char *plus = strchr(fname, '+'), *end;

	*add = 0;
	if (!plus)
		return 0;
	*plus = 0;
	errno = 0;
	*add = strtoull(plus + 1, &end, 0);
	if (errno || *end || !plus[1] || ret || probe_wild(fname)) {
		if (ret)
			probe_error(x, "%s cannot take an offset", x->ops->name);
		else
			probe_error(x, "%s offset must be a number after one function: FUNC+16",
				    x->ops->name);
		return -1;
	}
	return 0;
}

int probe_perf_open(void *attr, int pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

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
void probe_own_link(struct probe_env *env, int fd)
{
	push_fd(&env->links, &env->nlinks, &env->links_cap, fd);
}

int probe_perf_attach(struct probe_env *env, int pfd, int prog)
{
	int lfd = bpf_link_create(prog, pfd, BPF_PERF_EVENT, NULL);

	if (lfd >= 0) {
		push_fd(&env->events, &env->nevents, &env->events_cap, pfd);
		probe_own_link(env, lfd);
		return 0;
	}
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog) < 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int err = errno;

		close(pfd);
		return -err;
	}
	probe_own_link(env, pfd);
	return 0;
}

/* A number from /sys/bus/event_source/devices/FILE: a PMU's type, or
 * the config bit of "retprobe" (format: "config:0"); -ENOENT without
 * the file, -1 when it says otherwise, another -errno when it could not
 * be read (EMFILE: out of descriptors). */
static int pmu_sysfs(const char *file, const char *prefix)
{
	char path[128], *text;
	size_t len;
	int v = -1, rc;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", file);
	if ((rc = read_file(path, &text, &len)))
		return rc;
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
int probe_pmu_attach(const struct probe_spec *ps, int fd,
		     struct probe_env *env, bool kernel, bool ret)
{
	struct perf_event_attr attr;
	const char *pmu = kernel ? "kprobe" : "uprobe";
	char file[64];
	int type, bit, pfd;
	int pid = !kernel && env->pid > 0 ? env->pid : -1;

	snprintf(file, sizeof(file), "%s/type", pmu);
	type = pmu_sysfs(file, "");
	if (type < 0 && type != -ENOENT && type != -1)
		return type;
	if (type < 0)
		return kernel ? -PROBE_ENOKPROBES : -ENOTSUP;
	memset(&attr, 0, sizeof(attr));
	attr.type = (uint32_t)type;
	attr.size = sizeof(attr);
	if (ret) {
		snprintf(file, sizeof(file), "%s/format/retprobe", pmu);
		bit = pmu_sysfs(file, "config:");
		if (bit < 0)
			return -ENOTSUP;
		attr.config |= 1ULL << bit;
	}
	if (ps->ref_ctr_offset) {
		bit = pmu_sysfs("uprobe/format/ref_ctr_offset", "config:");
		if (bit < 0)
			return -ENOTSUP;
		if (bit < 1 || bit > 63 || ps->ref_ctr_offset >> (64 - bit))
			return -EFBIG;	/* the field holds 32 bits */
		attr.config |= ps->ref_ctr_offset << bit;
	}
	if (kernel)	/* kprobe_func, probe_offset */
		attr.config1 = (uint64_t)(uintptr_t)ps->func;
	else		/* uprobe_path, probe_offset */
		attr.config1 = (uint64_t)(uintptr_t)ps->path;
	attr.config2 = ps->uoffset;
	attr.sample_period = 1;
	attr.wakeup_events = 1;
	pfd = probe_perf_open(&attr, pid, pid > 0 ? -1 : 0);
	if (pfd < 0)
		return -errno;
	return probe_perf_attach(env, pfd, fd);
}

const char *probe_explain(const struct probe_spec *ps, int err)
{
	const char *why = ps->ops->explain ? ps->ops->explain(ps, err) : NULL;
	const char *caps = NULL;

	if (why)
		return why;
	if (err == EPERM || err == EACCES)
		caps = info_missing_caps();
	if (caps)
		return !strcmp(caps, "CAP_BPF") ?
		       "permission denied: attaching needs CAP_BPF, which this process lacks" :
		       "permission denied: tracing needs CAP_PERFMON, which this process lacks";
	if (err == EPERM || err == EACCES)
		return "the kernel refuses to attach to it (permission denied even for root)";
	if (err == EBUSY)
		return "the probe is busy (another tracer holds it exclusively)";
	return strerror(err);
}
