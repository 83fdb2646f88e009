/* perf.c - probes on perf events: interval:UNIT:N (a timer on one CPU),
 * profile:UNIT:N (sampling on every CPU), software:EVENT[:COUNT]
 * and hardware:EVENT[:COUNT] (counters on every CPU).  Watchpoints
 * are in watch.c. */
#include "probe/kinds.h"

#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Nanoseconds per unit, or 0 for "hz" (a frequency), -1 if unknown. */
static int64_t unit_ns(const char *u)
{
	if (!strcmp(u, "s") || !strcmp(u, "sec"))
		return 1000000000LL;
	if (!strcmp(u, "ms"))
		return 1000000LL;
	if (!strcmp(u, "us"))
		return 1000LL;
	if (!strcmp(u, "ns"))
		return 1LL;
	if (!strcmp(u, "hz"))
		return 0;
	return -1;
}

/* The count and unit of UNIT:N, or of Nunit in one field. */
static int count_unit(struct probe_exp *x, const char **num, const char **unit,
		      char *buf, size_t cap)
{
	if (x->nf == 3) {
		*unit = x->f[1];
		*num = x->f[2];
	} else if (x->nf == 2) {
		size_t k = strspn(x->f[1], "0123456789");

		if (k == 0 || k >= cap)
			return -1;
		memcpy(buf, x->f[1], k);
		buf[k] = 0;
		*num = buf;
		*unit = x->f[1] + k;
		if (!**unit && x->ops->kind == PK_PROFILE)
			*unit = "hz";	/* profile:99 */
	} else {
		return -1;
	}
	return **unit && **num ? 0 : -1;
}

/* A period (UNIT:N, or Nunit in one field) in nanoseconds, or a
 * frequency (hz).  Shared by interval and profile. */
static int period(struct probe_exp *x, uint64_t *ns_out, bool *is_freq)
{
	const char *what = x->ops->name, *unit, *num;
	char buf[32];
	uint64_t n;
	int64_t ns;

	if (count_unit(x, &num, &unit, buf, sizeof(buf))) {
		probe_error(x, "%s probe needs a unit and a count: %s:s:1, %s:ms:100, %s:hz:99",
			    what, what, what, what);
		return -1;
	}
	ns = unit_ns(unit);
	if (ns < 0) {
		probe_error(x, "%s unit '%s' is not one of s, ms, us, ns, hz",
			    what, unit);
		return -1;
	}
	if (probe_u64(num, &n) || n == 0) {
		probe_error(x, "%s needs a positive integer count, not '%s'",
			    what, num);
		return -1;
	}
	*is_freq = ns == 0;
	if (ns == 0) {
		if (n > 1000000000ULL) {
			probe_error(x, "%s frequency %llu hz is too high", what,
				    (unsigned long long)n);
			return -1;
		}
		*ns_out = n;
		return 0;
	}
	if (n > UINT64_MAX / (uint64_t)ns) {
		probe_error(x, "%s period overflows", what);
		return -1;
	}
	*ns_out = n * (uint64_t)ns;
	return 0;
}

/* `probe` shows the canonical spelling, as bpftrace does. */
static const char *timer_name(struct probe_exp *x)
{
	if (x->nf == 3)
		return arena_printf(&x->c->arena, "%s:%s:%s", x->ops->name,
				    x->f[1], x->f[2]);
	return x->text;
}

static int interval_expand(struct probe_exp *x)
{
	struct probe_spec *ps;
	uint64_t v;
	bool freq;

	if (period(x, &v, &freq))
		return -1;
	ps = probe_add(x);
	ps->period_ns = freq ? 1000000000ULL / v : v;
	ps->name = timer_name(x);
	return 0;
}

static int profile_expand(struct probe_exp *x)
{
	struct probe_spec *ps;
	uint64_t v;
	bool freq;

	if (period(x, &v, &freq))
		return -1;
	ps = probe_add(x);
	ps->sample = v;
	ps->perf_type = PERF_TYPE_SOFTWARE;
	ps->perf_config = PERF_COUNT_SW_CPU_CLOCK;
	ps->freq = freq;
	ps->name = timer_name(x);
	return 0;
}

struct perf_name {
	const char *name, *alias;
	uint64_t config;
	uint64_t period;	/* default sample period */
};

static const struct perf_name sw_events[] = {
	{ "cpu-clock", "cpu", PERF_COUNT_SW_CPU_CLOCK, 1000000 },
	{ "task-clock", NULL, PERF_COUNT_SW_TASK_CLOCK, 1000000 },
	{ "page-faults", "faults", PERF_COUNT_SW_PAGE_FAULTS, 100 },
	{ "context-switches", "cs", PERF_COUNT_SW_CONTEXT_SWITCHES, 1000 },
	{ "cpu-migrations", NULL, PERF_COUNT_SW_CPU_MIGRATIONS, 1 },
	{ "minor-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MIN, 100 },
	{ "major-faults", NULL, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1 },
	{ "alignment-faults", NULL, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1 },
	{ "emulation-faults", NULL, PERF_COUNT_SW_EMULATION_FAULTS, 1 },
	{ "dummy", NULL, PERF_COUNT_SW_DUMMY, 1 },
	{ "bpf-output", NULL, PERF_COUNT_SW_BPF_OUTPUT, 1 },
};

static const struct perf_name hw_events[] = {
	{ "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES, 1000000 },
	{ "instructions", NULL, PERF_COUNT_HW_INSTRUCTIONS, 1000000 },
	{ "cache-references", NULL, PERF_COUNT_HW_CACHE_REFERENCES, 1000000 },
	{ "cache-misses", NULL, PERF_COUNT_HW_CACHE_MISSES, 1000000 },
	{ "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100000 },
	{ "branch-misses", NULL, PERF_COUNT_HW_BRANCH_MISSES, 100000 },
	{ "bus-cycles", NULL, PERF_COUNT_HW_BUS_CYCLES, 100000 },
	{ "frontend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000000 },
	{ "backend-stalls", NULL, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000000 },
	{ "ref-cycles", NULL, PERF_COUNT_HW_REF_CPU_CYCLES, 1000000 },
};

/* -l: the events of the software or hardware table. */
static int counter_list(const struct probe_ops *ops, const char *pattern,
			bool verbose, int pid)
{
	bool hw = ops->kind == PK_HARDWARE;
	const struct perf_name *tab = hw ? hw_events : sw_events;
	size_t n = hw ? ARRAY_SIZE(hw_events) : ARRAY_SIZE(sw_events);
	char buf[128];

	(void)verbose;
	(void)pid;
	for (size_t i = 0; i < n; i++) {
		/* the event's name, then its short name (software:cpu:,
		 * as today's bpftrace lists it) */
		for (int k = 0; k < 2; k++) {
			const char *name = k ? tab[i].alias : tab[i].name;

			if (!name)
				continue;
			snprintf(buf, sizeof(buf), "%s:%s:", ops->name, name);
			if (!pattern || !fnmatch(pattern, buf, 0))
				puts(buf);
		}
	}
	return 0;
}

/* -l: interval and profile, by their units. */
static int timer_list(const struct probe_ops *ops, const char *pattern,
		      bool verbose, int pid)
{
	static const char *const units[] = { "hz", "us", "ms", "s" };
	char buf[64];

	(void)verbose;
	(void)pid;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		snprintf(buf, sizeof(buf), "%s:%s:", ops->name, units[i]);
		if (!pattern || !fnmatch(pattern, buf, 0))
			puts(buf);
	}
	return 0;
}

/* software:EVENT[:COUNT] and hardware:EVENT[:COUNT] */
static int counter_expand(struct probe_exp *x)
{
	bool hw = x->ops->kind == PK_HARDWARE;
	const char *what = x->ops->name;
	const struct perf_name *tab = hw ? hw_events : sw_events;
	size_t n = hw ? ARRAY_SIZE(hw_events) : ARRAY_SIZE(sw_events);
	const struct perf_name *e = NULL;
	struct probe_spec *ps;
	uint64_t count;

	if (x->nf < 2 || x->nf > 3 || !*x->f[1]) {
		probe_error(x, "%s probe needs an event: %s:EVENT[:COUNT]",
			    what, what);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].name, x->f[1]) ||
		    (tab[i].alias && !strcmp(tab[i].alias, x->f[1])))
			e = &tab[i];
	if (!e) {
		probe_error(x, "unknown %s event '%s' (sonde -l '%s:*' lists them)",
			    what, x->f[1], what);
		return -1;
	}
	count = e->period;
	if (x->nf == 3 && *x->f[2] && (probe_u64(x->f[2], &count) || !count)) {
		probe_error(x, "event count must be a positive integer, not '%s'",
			    x->f[2]);
		return -1;
	}
	ps = probe_add(x);
	ps->perf_type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	ps->perf_config = e->config;
	ps->sample = count;
	/* today's bpftrace names the event as written (cpu), 0.17 by
	 * its full name (cpu-clock) */
	ps->name = arena_printf(&x->c->arena, "%s:%s:%llu", what,
				x->c->dialect_017 ? e->name : x->f[1],
				(unsigned long long)count);
	return 0;
}

static void perf_load(const struct probe_spec *ps, struct probe_load *pl)
{
	(void)ps;
	pl->type = BPF_PROG_TYPE_PERF_EVENT;
}

/* interval: one cpu-clock timer on the first online CPU. */
static int interval_attach(const struct probe_spec *ps, int fd,
			   struct probe_env *env)
{
	struct perf_event_attr attr;
	int pfd, err = ENODEV;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = ps->period_ns;
	attr.freq = 0;
	for (int cpu = 0; cpu < env->ncpus; cpu++) {
		pfd = probe_perf_open(&attr, -1, cpu);
		if (pfd >= 0)
			return probe_perf_attach(env, pfd, fd);
		err = errno;
		if (err != ENODEV && err != EINVAL)
			break;
	}
	return -err;
}

/* One perf event per online CPU (profile, software, hardware). */
static int percpu_attach(const struct probe_spec *ps, int fd,
			 struct probe_env *env)
{
	struct perf_event_attr attr;
	int opened = 0, err = 0;

	memset(&attr, 0, sizeof(attr));
	attr.type = ps->perf_type;
	attr.size = sizeof(attr);
	attr.config = ps->perf_config;
	attr.freq = ps->freq;
	if (ps->freq)
		attr.sample_freq = ps->sample;
	else
		attr.sample_period = ps->sample;
	for (int cpu = 0; cpu < env->ncpus; cpu++) {
		int pfd = probe_perf_open(&attr, -1, cpu);

		if (pfd < 0) {
			if (errno == ENODEV)	/* offline CPU */
				continue;
			return -errno;
		}
		err = probe_perf_attach(env, pfd, fd);
		if (err)
			return err;
		opened++;
	}
	return opened ? 0 : -ENODEV;
}

static const char *hw_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == EINVAL)
		return "this machine has no hardware performance counters (no PMU, as in most virtual machines); software:cpu-clock or profile probes sample instead";
	return NULL;
}

const struct probe_ops probe_interval_ops = {
	.name = "interval",
	.alias = "i",
	.kind = PK_INTERVAL,
	.flags = PF_TIMER,
	.ctx = CTX_PERF,
	.expand = interval_expand,
	.list = timer_list,
	.load = perf_load,
	.attach = interval_attach,
};

const struct probe_ops probe_profile_ops = {
	.name = "profile",
	.alias = "p",
	.kind = PK_PROFILE,
	.flags = PF_REGS | PF_TASK,
	.ctx = CTX_PERF,
	.expand = profile_expand,
	.list = timer_list,
	.load = perf_load,
	.attach = percpu_attach,
};

const struct probe_ops probe_software_ops = {
	.name = "software",
	.alias = "s",
	.kind = PK_SOFTWARE,
	.flags = PF_REGS | PF_TASK,
	.ctx = CTX_PERF,
	.expand = counter_expand,
	.list = counter_list,
	.load = perf_load,
	.attach = percpu_attach,
};

const struct probe_ops probe_hardware_ops = {
	.name = "hardware",
	.alias = "h",
	.kind = PK_HARDWARE,
	.flags = PF_REGS | PF_TASK,
	.ctx = CTX_PERF,
	.expand = counter_expand,
	.list = counter_list,
	.load = perf_load,
	.attach = percpu_attach,
	.explain = hw_explain,
};
