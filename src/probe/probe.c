/* probes.c - from attach-point text to probe_spec.
 *
 * Probe kinds of this file: BEGIN, END (any case of begin/end),
 * interval:UNIT:N, profile:UNIT:N, software:EVENT[:COUNT],
 * hardware:EVENT[:COUNT], tracepoint:CAT:NAME and rawtracepoint:NAME
 * (with * and ? wildcards, expanded against tracefs), uprobe, uretprobe
 * and usdt (against ELF symbols and notes), and $N positional
 * parameters anywhere in the text.
 */
#include "probe/probe.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <fnmatch.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include <bpf/btf.h>

#include "catalog/btf.h"
#include "catalog/elfsym.h"
#include "catalog/info.h"
#include "catalog/ksyms.h"
#include "catalog/tracefs.h"
#include "catalog/usdt.h"

/* Split SPEC at ':' into at most MAX fields (arena copies). */
static int split(struct compiler *c, const char *spec, char **f, int max)
{
	int n = 0;
	const char *p = spec;

	for (;;) {
		const char *q = strchr(p, ':');
		size_t len = q ? (size_t)(q - p) : strlen(p);

		if (n == max)
			return max + 1;
		f[n++] = arena_strndup(&c->arena, p, len);
		if (!q)
			return n;
		p = q + 1;
	}
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

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

/* bpftrace's probe types and their short names: an unknown type is a
 * typo, a known one without support here is a missing feature. */
static bool known_type(const char *t)
{
	static const char *const types[] = {
		"kprobe", "k", "kretprobe", "kr", "uprobe", "u", "uretprobe",
		"ur", "tracepoint", "t", "rawtracepoint", "rt", "profile", "p",
		"interval", "i", "software", "s", "hardware", "h", "usdt", "U",
		"watchpoint", "w", "asyncwatchpoint", "aw", "kfunc", "f",
		"kretfunc", "fr", "fentry", "fexit", "iter", "it",
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(t, types[i]))
			return true;
	return false;
}

/* Replace $N and $# in a probe's text by the positional parameters
 * (a missing one by nothing), as bpftrace does. */
static const char *substitute(struct compiler *c, const char *text)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out;

	if (!strchr(text, '$'))
		return text;
	for (int i = 0; i < c->nparams; i++)
		cap += strlen(c->params[i]) * 2;
	cap += 32;
	out = arena_alloc(&c->arena, cap * 4);
	for (const char *p = text; *p;) {
		if (p[0] == '$' && p[1] == '#') {
			len += (size_t)sprintf(out + len, "%d", c->nparams);
			p += 2;
		} else if (p[0] == '$' && isdigit((unsigned char)p[1])) {
			long k = strtol(p + 1, (char **)&p, 10);

			if (k >= 1 && k <= c->nparams) {
				size_t l = strlen(c->params[k - 1]);

				if (len + l + 1 < cap * 4) {
					memcpy(out + len, c->params[k - 1], l);
					len += l;
				}
			}
		} else {
			out[len++] = *p++;
		}
	}
	out[len] = 0;
	return out;
}

/* A period (UNIT:N, or Nunit in one field) in nanoseconds, or a
 * frequency (hz).  Shared by interval and profile. */
static int period(struct compiler *c, struct node *ap, const char *what,
		  char **f, int nf, uint64_t *ns_out, bool *is_freq)
{
	uint64_t n;
	int64_t ns;
	const char *unit, *num;
	char buf[32];

	if (nf == 3) {
		unit = f[1];
		num = f[2];
	} else if (nf == 2) {
		size_t k = strspn(f[1], "0123456789");

		if (k == 0 || k >= sizeof(buf))
			goto bad;
		memcpy(buf, f[1], k);
		buf[k] = 0;
		num = buf;
		unit = f[1] + k;
		if (!*unit && !strcmp(what, "profile"))
			unit = "hz";	/* profile:99 */
	} else {
		goto bad;
	}
	if (!*unit || !*num)
		goto bad;
	ns = unit_ns(unit);
	if (ns < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s unit '%s' is not one of s, ms, us, ns, hz", what,
			   unit);
		return -1;
	}
	if (parse_u64(num, &n) || n == 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s needs a positive integer count, not '%s'", what, num);
		return -1;
	}
	*is_freq = ns == 0;
	if (ns == 0) {
		if (n > 1000000000ULL) {
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "%s frequency %llu hz is too high", what,
				   (unsigned long long)n);
			return -1;
		}
		*ns_out = n;
		return 0;
	}
	if (n > UINT64_MAX / (uint64_t)ns) {
		diag_error(&c->diag, ap->loc, E_PROBE, "%s period overflows", what);
		return -1;
	}
	*ns_out = n * (uint64_t)ns;
	return 0;
bad:
	diag_error(&c->diag, ap->loc, E_PROBE,
		   "%s probe needs a unit and a count: %s:s:1, %s:ms:100, %s:hz:99",
		   what, what, what, what);
	return -1;
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

void probes_list_perf(void (*fn)(void *arg, const char *line), void *arg,
		      const char *pattern)
{
	char buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(sw_events); i++) {
		snprintf(buf, sizeof(buf), "software:%s:", sw_events[i].name);
		if (!pattern || !fnmatch(pattern, buf, 0))
			fn(arg, buf);
	}
	for (size_t i = 0; i < ARRAY_SIZE(hw_events); i++) {
		snprintf(buf, sizeof(buf), "hardware:%s:", hw_events[i].name);
		if (!pattern || !fnmatch(pattern, buf, 0))
			fn(arg, buf);
	}
}

/* software:EVENT[:COUNT] and hardware:EVENT[:COUNT] */
static int perf_event(struct compiler *c, struct node *ap, char **f, int nf,
		      struct probe_spec *ps, bool hw)
{
	const struct perf_name *tab = hw ? hw_events : sw_events;
	size_t n = hw ? ARRAY_SIZE(hw_events) : ARRAY_SIZE(sw_events);
	const struct perf_name *e = NULL;
	uint64_t count;

	if (nf < 2 || nf > 3 || !*f[1]) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s probe needs an event: %s:EVENT[:COUNT]",
			   hw ? "hardware" : "software", hw ? "hardware" : "software");
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!strcmp(tab[i].name, f[1]) ||
		    (tab[i].alias && !strcmp(tab[i].alias, f[1])))
			e = &tab[i];
	if (!e) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "unknown %s event '%s' (sonde -l '%s:*' lists them)",
			   hw ? "hardware" : "software", f[1],
			   hw ? "hardware" : "software");
		return -1;
	}
	count = e->period;
	if (nf == 3 && *f[2] && (parse_u64(f[2], &count) || !count)) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "event count must be a positive integer, not '%s'", f[2]);
		return -1;
	}
	ps->kind = hw ? PK_HARDWARE : PK_SOFTWARE;
	ps->perf_type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	ps->perf_config = e->config;
	ps->sample = count;
	ps->name = arena_printf(&c->arena, "%s:%s:%llu",
				hw ? "hardware" : "software", e->name,
				(unsigned long long)count);
	return 0;
}

/* watchpoint:ADDR:LEN:MODE, a hardware breakpoint on a user address of
 * the process of -p or -c. */
static int watchpoint(struct compiler *c, struct node *ap, char **f, int nf,
		      struct probe_spec *ps)
{
	uint64_t addr, len;
	char *end;
	int type = 0;

	if (nf != 4) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "watchpoint probe needs an address, a length and a mode: watchpoint:0x10000000:8:w");
		return -1;
	}
	errno = 0;
	addr = strtoull(f[1], &end, 0);
	if (errno || *end || !*f[1] || !addr) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "watchpoint address '%s' is not a number", f[1]);
		return -1;
	}
	if (parse_u64(f[2], &len) || (len != 1 && len != 2 && len != 4 && len != 8)) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "watchpoint length must be 1, 2, 4 or 8, not '%s'", f[2]);
		return -1;
	}
	for (const char *m = f[3]; *m; m++) {
		int bit = *m == 'r' ? HW_BREAKPOINT_R : *m == 'w' ? HW_BREAKPOINT_W :
			  *m == 'x' ? HW_BREAKPOINT_X : 0;

		if (!bit || (type & bit)) {
			type = -1;
			break;
		}
		type |= bit;
	}
	/* The hardware watches reads with writes, or executes alone. */
	if (type <= 0 || type == HW_BREAKPOINT_R ||
	    ((type & HW_BREAKPOINT_X) && type != HW_BREAKPOINT_X)) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "watchpoint mode must be w, rw or x, not '%s'", f[3]);
		return -1;
	}
	if (!c->target_pid && !c->has_command) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "a watchpoint watches a process: give one with -p PID or -c 'CMD'");
		return -1;
	}
	ps->kind = PK_WATCHPOINT;
	ps->perf_type = PERF_TYPE_BREAKPOINT;
	ps->bp_addr = addr;
	ps->bp_len = (int)len;
	ps->bp_type = type;
	ps->name = arena_printf(&c->arena, "watchpoint:0x%llx:%d:%s",
				(unsigned long long)addr, (int)len, f[3]);
	return 0;
}

/* iter:task, iter:task_file, iter:task_vma: a BPF iterator run once
 * over every task (or open file, or mapping), then the script ends. */
static int iterator(struct compiler *c, struct node *ap, char **f, int nf,
		    struct probe_spec *ps)
{
	static const char *const known[] = { "task", "task_file", "task_vma" };
	const char *why = NULL;
	struct btf *b;
	char fn[64];
	bool ok = false;
	int id;

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (nf == 2 && !strcmp(f[1], known[i]))
			ok = true;
	if (!ok) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "iter probe needs one of task, task_file, task_vma: iter:task");
		return -1;
	}
	b = btf_kernel(c, &why);
	if (!b) {
		diag_error(&c->diag, ap->loc, E_PROBE, "iter:%s: %s", f[1], why);
		return -1;
	}
	snprintf(fn, sizeof(fn), "bpf_iter_%s", f[1]);
	id = btf__find_by_name_kind(b, fn, BTF_KIND_FUNC);
	if (id < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "this kernel has no %s iterator", f[1]);
		return -1;
	}
	ps->kind = PK_ITER;
	ps->target = arena_strdup(&c->arena, f[1]);
	ps->attach_btf_id = id;
	ps->ctx_struct = arena_printf(&c->arena, "struct bpf_iter__%s", f[1]);
	ps->name = arena_printf(&c->arena, "iter:%s", f[1]);
	return 0;
}

/* Growable array of expanded specs. */
struct specs {
	struct compiler *c;
	struct node *ap;
	struct probe_spec *v;
	int n, cap;
	const char *dir;
	bool raw;
	int err;
};

static struct probe_spec *spec_add(struct specs *sp)
{
	if (sp->n == sp->cap) {
		struct probe_spec *v;

		sp->cap = sp->cap ? sp->cap * 2 : 16;
		v = arena_alloc(&sp->c->arena, sizeof(*v) * (size_t)sp->cap);
		if (sp->n)
			memcpy(v, sp->v, sizeof(*v) * (size_t)sp->n);
		sp->v = v;
	}
	memset(&sp->v[sp->n], 0, sizeof(sp->v[0]));
	sp->v[sp->n].loc = sp->ap->loc;
	return &sp->v[sp->n++];
}

static void add_tracepoint(void *arg, const char *cat, const char *name)
{
	struct specs *sp = arg;
	struct compiler *c = sp->c;
	struct probe_spec *ps;
	struct tp_format *tp = arena_alloc(&c->arena, sizeof(*tp));
	int rc;

	if (sp->err)
		return;
	rc = tp_read_format(&c->arena, sp->dir, cat, name, tp);
	if (rc) {
		/* Some tracefs entries (ftrace's own) have no usable format. */
		if (rc == -ENOENT || rc == -EINVAL)
			return;
		sp->err = rc;
		return;
	}
	ps = spec_add(sp);
	if (sp->raw) {
		ps->kind = PK_RAWTP;
		ps->target = arena_strdup(&c->arena, name);
		ps->name = arena_printf(&c->arena, "rawtracepoint:%s", name);
	} else {
		ps->kind = PK_TRACEPOINT;
		ps->target = arena_printf(&c->arena, "%s:%s", cat, name);
		ps->name = arena_printf(&c->arena, "tracepoint:%s:%s", cat, name);
		ps->tp = tp;
		ps->tp_id = tp->id;
	}
}

/* Raw tracepoints named by BTF's btf_trace_NAME typedefs and matching
 * GLOB, for those tracefs does not list. */
static void raw_from_btf(struct specs *sp, const char *glob)
{
	struct btf *b = btf_kernel(sp->c, NULL);
	int n;

	if (!b)
		return;
	n = (int)btf__type_cnt(b);
	for (int id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *tn;
		bool dup = false;

		if (!btf_is_typedef(t))
			continue;
		tn = btf__name_by_offset(b, t->name_off);
		if (!tn || strncmp(tn, "btf_trace_", 10) || fnmatch(glob, tn + 10, 0))
			continue;
		for (int i = 0; i < sp->n; i++)
			if (!strcmp(sp->v[i].target, tn + 10))
				dup = true;
		if (!dup) {
			struct probe_spec *ps = spec_add(sp);

			ps->kind = PK_RAWTP;
			ps->target = arena_strdup(&sp->c->arena, tn + 10);
			ps->name = arena_printf(&sp->c->arena, "rawtracepoint:%s", tn + 10);
		}
	}
}

struct ufuncs {
	struct specs *sp;
	const char *path;
	bool ret;
	uint64_t add;		/* FUNC+OFF */
	uint64_t past_end;	/* set: the offset is past FUNC's size */
};

static void add_ufunc(void *arg, const struct elf_func *f)
{
	struct ufuncs *u = arg;
	struct compiler *c = u->sp->c;
	struct probe_spec *ps;

	/* an offset past the function's end would patch another one */
	if (u->add && f->size && u->add >= f->size) {
		u->past_end = f->size;
		return;
	}
	ps = spec_add(u->sp);

	ps->kind = u->ret ? PK_URETPROBE : PK_UPROBE;
	ps->path = u->path;
	ps->uoffset = f->offset + u->add;
	ps->uvaddr = f->addr + u->add;
	ps->func = arena_strdup(&c->arena, f->name);
	if (u->add)
		ps->name = arena_printf(&c->arena, "%s:%s:%s+%llu",
					u->ret ? "uretprobe" : "uprobe", u->path,
					f->name, (unsigned long long)u->add);
	else
		ps->name = arena_printf(&c->arena, "%s:%s:%s",
					u->ret ? "uretprobe" : "uprobe", u->path,
					f->name);
}

/* uprobe:PATH:FUNC, uprobe:PATH:FUNC+OFF, uprobe:PATH:ADDRESS and
 * uretprobe:PATH:FUNC; FUNC may be a wildcard. */
static int uprobes(struct compiler *c, struct node *ap, char **f, int nf,
		   bool ret, struct probe_spec **out, int *n)
{
	const char *kind = ret ? "uretprobe" : "uprobe";
	struct specs sp;
	struct ufuncs u;
	char *path, *plus, *fname;
	int rc;

	if (nf != 3 || !*f[1] || !*f[2]) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s probe needs a file and a function: %s:/bin/bash:readline",
			   kind, kind);
		return -1;
	}
	path = elf_resolve_path(f[1], c->target_pid);
	if (!path) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s: %s: no such file, library or program", kind, f[1]);
		return -1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.c = c;
	sp.ap = ap;
	u.sp = &sp;
	u.path = arena_strdup(&c->arena, path);
	u.ret = ret;
	u.add = 0;
	free(path);
	rc = elf_check(u.path);
	if (rc) {
		diag_error(&c->diag, ap->loc, E_PROBE, "%s: %s: %s", kind, u.path,
			   rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return -1;
	}
	fname = f[2];
	if (isdigit((unsigned char)fname[0])) {
		/* an address in the file */
		uint64_t addr, off;
		char *end;
		struct probe_spec *ps;

		errno = 0;
		addr = strtoull(fname, &end, 0);
		if (errno || *end) {
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "%s: '%s' is not an address", kind, fname);
			return -1;
		}
		if (elf_addr_to_offset(u.path, addr, &off)) {
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "%s: address 0x%llx is not in a loaded segment of %s",
				   kind, (unsigned long long)addr, u.path);
			return -1;
		}
		ps = spec_add(&sp);
		ps->kind = ret ? PK_URETPROBE : PK_UPROBE;
		ps->path = u.path;
		ps->uoffset = off;
		ps->uvaddr = addr;
		ps->func = arena_printf(&c->arena, "0x%llx", (unsigned long long)addr);
		ps->name = arena_printf(&c->arena, "%s:%s:0x%llx", kind, u.path,
					(unsigned long long)addr);
		*out = sp.v;
		*n = sp.n;
		return 0;
	}
	plus = strchr(fname, '+');
	if (plus) {
		char *end;

		*plus = 0;
		errno = 0;
		u.add = strtoull(plus + 1, &end, 0);
		if (errno || *end || !plus[1] || ret || strpbrk(fname, "*?[")) {
			diag_error(&c->diag, ap->loc, E_PROBE, ret ?
				   "uretprobe cannot take an offset" :
				   "uprobe offset must be a number after one function: FUNC+16");
			return -1;
		}
	}
	u.past_end = 0;
	rc = elf_functions(u.path, fname, add_ufunc, &u);
	if (u.past_end) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s: offset %llu is past the end of %s (%llu bytes)", kind,
			   (unsigned long long)u.add, fname,
			   (unsigned long long)u.past_end);
		return -1;
	}
	if (rc < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE, "%s: cannot read %s: %s",
			   kind, u.path, rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return -1;
	}
	if (!sp.n) {
		diag_error(&c->diag, ap->loc, E_PROBE, strpbrk(fname, "*?[") ?
			   "%s: no function of %s matches %s" :
			   "%s: function %s not found in %s", kind,
			   strpbrk(fname, "*?[") ? u.path : fname,
			   strpbrk(fname, "*?[") ? fname : u.path);
		return -1;
	}
	/* one function the kernel cannot probe does not stop the others */
	for (int i = 0; i < sp.n; i++)
		sp.v[i].wild = strpbrk(fname, "*?[") != NULL;
	/* as for kprobes: can the kernel attach them as one program? */
	if (sp.n > 1 && !c->uprobe_multi_checked) {
		c->uprobe_multi = info_uprobe_multi();
		c->uprobe_multi_checked = true;
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

/* Functions kprobes can attach to: the kernel's text symbols, limited
 * to available_filter_functions where tracefs lists them. */
static int kernel_functions(struct compiler *c, const char *glob,
			    void (*fn)(struct specs *sp, const char *name),
			    struct specs *sp)
{
	struct ksyms ks;
	const char *dir = c->tracefs ? c->tracefs : tracefs_dir(NULL, NULL);
	char *filter = NULL;
	size_t flen = 0;
	int count = 0;

	if (dir) {
		char path[512];

		snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
		if (read_file(path, &filter, &flen))
			filter = NULL;
	}
	if (filter) {
		/* "name" or "name [module]", one per line */
		for (char *p = filter; p < filter + flen;) {
			char *nl = memchr(p, '\n', (size_t)(filter + flen - p));
			char *sp2;

			if (nl)
				*nl = 0;
			sp2 = strchr(p, ' ');
			if (sp2)
				*sp2 = 0;
			if (*p && !fnmatch(glob, p, 0) && !strchr(p, '.')) {
				fn(sp, p);
				count++;
			}
			p = nl ? nl + 1 : filter + flen;
		}
		free(filter);
		return count;
	}
	if (ksyms_load(&ks, NULL))
		return -EPERM;
	for (size_t i = 0; i < ks.n; i++) {
		if (!fnmatch(glob, ks.v[i].name, 0) && !strchr(ks.v[i].name, '.')) {
			fn(sp, ks.v[i].name);
			count++;
		}
	}
	ksyms_free(&ks);
	return count;
}

static void add_kfunc(struct specs *sp, const char *name)
{
	struct compiler *c = sp->c;
	struct probe_spec *ps;

	for (int i = 0; i < sp->n; i++)	/* kallsyms repeats some names */
		if (!strcmp(sp->v[i].func, name))
			return;
	ps = spec_add(sp);
	ps->kind = sp->raw ? PK_KRETPROBE : PK_KPROBE;
	ps->func = arena_strdup(&c->arena, name);
	ps->name = arena_printf(&c->arena, "%s:%s", sp->raw ? "kretprobe" : "kprobe",
				name);
}

/* kprobe:FUNC, kprobe:FUNC+OFF, kretprobe:FUNC, wildcards. */
static int kprobes(struct compiler *c, struct node *ap, char **f, int nf,
		   bool ret, struct probe_spec **out, int *n)
{
	const char *kind = ret ? "kretprobe" : "kprobe";
	struct specs sp;
	char *fname, *plus;
	uint64_t add = 0;
	int rc;

	if (nf != 2 || !*f[1]) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s probe needs a kernel function: %s:vfs_read", kind, kind);
		return -1;
	}
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK)) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "this kernel has no kprobe support (CONFIG_KPROBES is off); tracepoint and fentry probes may work instead");
		return -1;
	}
	fname = f[1];
	plus = strchr(fname, '+');
	if (plus) {
		char *end;

		*plus = 0;
		errno = 0;
		add = strtoull(plus + 1, &end, 0);
		if (errno || *end || !plus[1] || ret || strpbrk(fname, "*?[")) {
			diag_error(&c->diag, ap->loc, E_PROBE, ret ?
				   "kretprobe cannot take an offset" :
				   "kprobe offset must be a number after one function: FUNC+16");
			return -1;
		}
	}
	memset(&sp, 0, sizeof(sp));
	sp.c = c;
	sp.ap = ap;
	sp.raw = ret;
	rc = kernel_functions(c, fname, add_kfunc, &sp);
	if (rc < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s: cannot read the kernel's functions (/proc/kallsyms): %s",
			   kind, strerror(-rc));
		return -1;
	}
	if (!sp.n) {
		diag_error(&c->diag, ap->loc, E_PROBE, strpbrk(fname, "*?[") ?
			   "%s: no kernel function matches %s" :
			   "%s: kernel function %s not found (or not traceable)",
			   kind, fname);
		return -1;
	}
	/* Whether the kernel can attach them as one kprobe_multi program
	 * is a feature of the catalogue, found out once. */
	if (sp.n > 1 && !c->kprobe_multi_checked) {
		c->kprobe_multi = info_kprobe_multi();
		c->kprobe_multi_checked = true;
	}
	for (int i = 0; i < sp.n; i++) {
		sp.v[i].uoffset = add;
		sp.v[i].wild = strpbrk(fname, "*?[") != NULL;
		if (add)
			sp.v[i].name = arena_printf(&c->arena, "kprobe:%s+%llu",
						    sp.v[i].func,
						    (unsigned long long)add);
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

/* fentry:FUNC and fexit:FUNC: BTF functions, wildcards. */
static int fentries(struct compiler *c, struct node *ap, char **f, int nf,
		    bool ret, struct probe_spec **out, int *n)
{
	const char *kind = ret ? "fexit" : "fentry";
	const char *why = NULL;
	struct btf *b;
	struct specs sp;
	int cnt;

	if (nf != 2 || !*f[1]) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s probe needs a kernel function: %s:vfs_read", kind, kind);
		return -1;
	}
	b = btf_kernel(c, &why);
	if (!b) {
		diag_error(&c->diag, ap->loc, E_PROBE, "%s: %s", kind, why);
		return -1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.c = c;
	sp.ap = ap;
	cnt = (int)btf__type_cnt(b);
	for (int id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *fn;
		struct probe_spec *ps;

		if (!btf_is_func(t))
			continue;
		fn = btf__name_by_offset(b, t->name_off);
		if (!fn || fnmatch(f[1], fn, 0))
			continue;
		ps = spec_add(&sp);
		ps->kind = ret ? PK_FEXIT : PK_FENTRY;
		ps->func = arena_strdup(&c->arena, fn);
		ps->attach_btf_id = id;
		ps->wild = strpbrk(f[1], "*?[") != NULL;
		ps->name = arena_printf(&c->arena, "%s:%s", kind, fn);
	}
	if (!sp.n) {
		diag_error(&c->diag, ap->loc, E_PROBE, strpbrk(f[1], "*?[") ?
			   "%s: no kernel function in BTF matches %s" :
			   "%s: kernel function %s not found in BTF", kind, f[1]);
		return -1;
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

struct unotes {
	struct specs *sp;
	const char *path;
	const char *first_provider;	/* of the first match */
	bool several_providers;
};

/* One spec per note: a probe inlined in several places has a note,
 * and its own operands, at each. */
static void add_unote(void *arg, const struct usdt_note *note)
{
	struct unotes *u = arg;
	struct compiler *c = u->sp->c;
	struct probe_spec *ps = spec_add(u->sp);
	struct usdt_arg *args = arena_alloc(&c->arena, sizeof(*args) *
					    (size_t)(note->nargs + 1));

	memcpy(args, note->arg, sizeof(*args) * (size_t)note->nargs);
	ps->kind = PK_USDT;
	ps->path = u->path;
	ps->uoffset = note->pc_offset;
	ps->uvaddr = note->pc;
	ps->ref_ctr_offset = note->sem_offset;
	ps->uargs = args;
	ps->nuargs = note->nargs;
	ps->usdt_args = arena_strdup(&c->arena, note->args);
	ps->name = arena_printf(&c->arena, "usdt:%s:%s:%s", u->path,
				note->provider, note->name);
	if (!u->first_provider)
		u->first_provider = arena_strdup(&c->arena, note->provider);
	else if (strcmp(u->first_provider, note->provider))
		u->several_providers = true;
}

/* usdt:PATH:PROVIDER:NAME and usdt:PATH:NAME (any provider, but only
 * one: bpftrace 0.17 refuses an ambiguous name too); wildcards in
 * PROVIDER and NAME. */
static int usdts(struct compiler *c, struct node *ap, char **f, int nf,
		 struct probe_spec **out, int *n)
{
	struct specs sp;
	struct unotes u;
	const char *prov, *name;
	char *path;
	int rc, nbad;

	if ((nf != 3 && nf != 4) || !*f[1] || !*f[nf - 1] || (nf == 4 && !*f[2])) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "usdt probe needs a file and a probe: usdt:/path/prog:PROVIDER:NAME or usdt:/path/prog:NAME");
		return -1;
	}
	path = elf_resolve_path(f[1], c->target_pid);
	if (!path) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "usdt: %s: no such file, library or program", f[1]);
		return -1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.c = c;
	sp.ap = ap;
	memset(&u, 0, sizeof(u));
	u.sp = &sp;
	u.path = arena_strdup(&c->arena, path);
	free(path);
	prov = nf == 4 ? f[2] : "*";
	name = f[nf - 1];
	rc = usdt_notes(u.path, prov, name, add_unote, &u, &nbad);
	if (rc < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE, "usdt: %s: %s", u.path,
			   rc == -ENOEXEC ? "not an ELF file" :
			   rc == -EINVAL ? "not an executable or a shared library" :
			   strerror(-rc));
		return -1;
	}
	if (!sp.n) {
		char bad[80] = "";

		if (nbad)
			snprintf(bad, sizeof(bad), " (%d corrupt note%s skipped)",
				 nbad, nbad == 1 ? "" : "s");
		if (nf == 3)
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "usdt: no probe %s in %s%s", name, u.path, bad);
		else
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "usdt: no probe %s:%s in %s%s", prov, name,
				   u.path, bad);
		return -1;
	}
	if (nf == 3 && u.several_providers && !strpbrk(name, "*?[")) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "usdt: several providers of %s have a probe %s: name one, as in usdt:%s:%s:%s, or all with usdt:%s:*:%s",
			   u.path, name, u.path, u.first_provider, name, u.path,
			   name);
		return -1;
	}
	*out = sp.v;
	*n = sp.n;
	return 0;
}

static const char *tracefs(struct compiler *c, struct node *ap)
{
	const char *why = NULL;
	bool mounted = false;
	const char *dir;

	if (c->tracefs)
		return c->tracefs;
	dir = tracefs_dir(&why, &mounted);
	if (!dir) {
		diag_error(&c->diag, ap->loc, E_PROBE, "%s", why);
		return NULL;
	}
	if (mounted && c->verbose)
		fprintf(stderr, "sonde: mounted tracefs at %s\n", dir);
	return dir;
}

/* tracepoint:CAT:NAME and rawtracepoint:NAME, wildcards expanded. */
static int tracepoints(struct compiler *c, struct node *ap, char **f, int nf,
		       bool raw, struct probe_spec **out, int *n)
{
	struct specs sp;
	const char *cat, *name;
	int rc;

	memset(&sp, 0, sizeof(sp));
	sp.c = c;
	sp.ap = ap;
	sp.raw = raw;
	if (raw ? (nf < 2 || nf > 3) : nf != 3) {
		diag_error(&c->diag, ap->loc, E_PROBE, raw ?
			   "rawtracepoint probe needs a name: rawtracepoint:NAME" :
			   "tracepoint probe needs a category and a name: tracepoint:CATEGORY:NAME");
		return -1;
	}
	cat = raw ? (nf == 3 ? f[1] : "*") : f[1];
	name = raw ? f[nf - 1] : f[2];
	if (!*cat || !*name) {
		diag_error(&c->diag, ap->loc, E_PROBE, "empty %s name in '%s'",
			   raw ? "rawtracepoint" : "tracepoint", ap->name);
		return -1;
	}
	sp.dir = tracefs(c, ap);
	if (!sp.dir)
		return -1;
	rc = tp_list(sp.dir, cat, name, add_tracepoint, &sp);
	/* Bare tracepoints (no tracefs event) exist only in BTF. */
	if (raw && rc >= 0 && !sp.err)
		raw_from_btf(&sp, name);
	if (rc < 0 || sp.err) {
		diag_error(&c->diag, ap->loc, E_PROBE, "cannot read tracefs: %s",
			   strerror(-(sp.err ? sp.err : rc)));
		return -1;
	}
	if (!sp.n) {
		bool wild = (!raw && strpbrk(cat, "*?[")) || strpbrk(name, "*?[");

		if (wild)
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "no %s matches %s%s%s", raw ? "raw tracepoint" : "tracepoint",
				   raw ? "" : cat, raw ? "" : ":", name);
		else if (raw)
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "raw tracepoint %s not found", name);
		else
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "tracepoint %s:%s not found", cat, name);
		return -1;
	}
	/* A raw tracepoint listed under several categories is one probe. */
	if (raw) {
		int k = 0;

		for (int i = 0; i < sp.n; i++) {
			bool dup = false;

			for (int j = 0; j < k; j++)
				if (!strcmp(sp.v[j].target, sp.v[i].target))
					dup = true;
			if (!dup)
				sp.v[k++] = sp.v[i];
		}
		sp.n = k;
	}
	for (int i = 0; i < sp.n; i++)
		sp.v[i].wild = strpbrk(cat, "*?[") || strpbrk(name, "*?[");
	*out = sp.v;
	*n = sp.n;
	return 0;
}

/* The spellings probes_expand() reads: BEGIN and END in any case,
 * the types as bpftrace writes them (long and short name). */
static bool is_begin_end(const char *s)
{
	return !strcasecmp(s, "BEGIN") || !strcasecmp(s, "END");
}

static bool is_type(const char *s, size_t n, const char *name,
		    const char *abbrev)
{
	return (strlen(name) == n && !strncmp(s, name, n)) ||
	       (strlen(abbrev) == n && !strncmp(s, abbrev, n));
}

bool probes_timer_only(const struct program *ast)
{
	for (struct node *p = ast->probes; p; p = p->next) {
		for (int i = 0; i < p->nargs; i++) {
			const char *s = p->args[i]->name;
			size_t n = strcspn(s, ":");

			if (!is_begin_end(s) &&
			    !is_type(s, n, "interval", "i") &&
			    !is_type(s, n, "iter", "it"))
				return false;
		}
	}
	return true;
}

int probes_expand(struct compiler *c, struct node *ap,
		  struct probe_spec **out, int *n)
{
	struct probe_spec *ps = arena_alloc(&c->arena, sizeof(*ps));
	const char *text = substitute(c, ap->name);
	char *f[8];
	int nf;

	ps->loc = ap->loc;
	ps->name = text;
	*out = ps;
	*n = 1;
	if (!strcasecmp(text, "BEGIN")) {
		ps->kind = PK_BEGIN;
		ps->name = "BEGIN";
		return 0;
	}
	if (!strcasecmp(text, "END")) {
		ps->kind = PK_END;
		ps->name = "END";
		return 0;
	}
	nf = split(c, text, f, 7);
	if (is_type(f[0], strlen(f[0]), "interval", "i")) {
		bool freq;

		if (period(c, ap, "interval", f, nf, &ps->period_ns, &freq))
			return -1;
		if (freq)
			ps->period_ns = 1000000000ULL / ps->period_ns;
		ps->kind = PK_INTERVAL;
		/* `probe` shows the canonical spelling, as bpftrace does. */
		if (nf == 3)
			ps->name = arena_printf(&c->arena, "interval:%s:%s",
						f[1], f[2]);
		return 0;
	}
	if (is_begin_end(f[0])) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s takes nothing after it: write just %s", f[0], f[0]);
		return -1;
	}
	if (!known_type(f[0])) {
		if (nf == 1)
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "unknown probe '%s' (expected BEGIN, END or TYPE:...)",
				   ap->name);
		else
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "unknown probe type '%s'", f[0]);
		return -1;
	}
	if (nf == 1) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "probe type '%s' needs a target, as in %s:NAME",
			   f[0], f[0]);
		return -1;
	}
	if (!strcmp(f[0], "profile") || !strcmp(f[0], "p")) {
		bool freq;

		if (period(c, ap, "profile", f, nf, &ps->sample, &freq))
			return -1;
		ps->kind = PK_PROFILE;
		ps->perf_type = PERF_TYPE_SOFTWARE;
		ps->perf_config = PERF_COUNT_SW_CPU_CLOCK;
		ps->freq = freq;
		if (nf == 3)
			ps->name = arena_printf(&c->arena, "profile:%s:%s", f[1], f[2]);
		return 0;
	}
	if (!strcmp(f[0], "software") || !strcmp(f[0], "s"))
		return perf_event(c, ap, f, nf, ps, false);
	if (!strcmp(f[0], "hardware") || !strcmp(f[0], "h"))
		return perf_event(c, ap, f, nf, ps, true);
	if (!strcmp(f[0], "kprobe") || !strcmp(f[0], "k"))
		return kprobes(c, ap, f, nf, false, out, n);
	if (!strcmp(f[0], "kretprobe") || !strcmp(f[0], "kr"))
		return kprobes(c, ap, f, nf, true, out, n);
	if (!strcmp(f[0], "fentry") || !strcmp(f[0], "f") || !strcmp(f[0], "kfunc"))
		return fentries(c, ap, f, nf, false, out, n);
	if (!strcmp(f[0], "fexit") || !strcmp(f[0], "fr") || !strcmp(f[0], "kretfunc"))
		return fentries(c, ap, f, nf, true, out, n);
	if (!strcmp(f[0], "uprobe") || !strcmp(f[0], "u"))
		return uprobes(c, ap, f, nf, false, out, n);
	if (!strcmp(f[0], "uretprobe") || !strcmp(f[0], "ur"))
		return uprobes(c, ap, f, nf, true, out, n);
	if (!strcmp(f[0], "usdt") || !strcmp(f[0], "U"))
		return usdts(c, ap, f, nf, out, n);
	if (is_type(f[0], strlen(f[0]), "iter", "it"))
		return iterator(c, ap, f, nf, ps);
	if (!strcmp(f[0], "watchpoint") || !strcmp(f[0], "w"))
		return watchpoint(c, ap, f, nf, ps);
	if (!strcmp(f[0], "tracepoint") || !strcmp(f[0], "t"))
		return tracepoints(c, ap, f, nf, false, out, n);
	if (!strcmp(f[0], "rawtracepoint") || !strcmp(f[0], "rt"))
		return tracepoints(c, ap, f, nf, true, out, n);
	diag_error(&c->diag, ap->loc, E_PROBE,
		   "probe type '%s' is not supported yet", f[0]);
	return -1;
}
