/* dprobe.c - D's probe descriptions on Linux: which of sonde's attach
 * points a "provider:module:function:name" means (the provider map of
 * docs/d-language.md), and back, the four D names of a probe sonde
 * expanded, for probeprov, probemod, probefunc and probename. */
#include "lang/dprobe.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* DESC's four fields, right-aligned as D reads a description with
 * fewer ("BEGIN" is the name; "read:entry" function and name). */
static int split(struct arena *a, const char *desc, const char *f[4])
{
	const char *parts[4];
	size_t lens[4];
	int n = 0;
	const char *p = desc;

	for (;;) {
		const char *c = strchr(p, ':');

		if (n == 4)
			return -1;
		parts[n] = p;
		lens[n] = c ? (size_t)(c - p) : strlen(p);
		n++;
		if (!c)
			break;
		p = c + 1;
	}
	for (int i = 0; i < 4; i++)
		f[i] = "";
	for (int i = 0; i < n; i++)
		f[4 - n + i] = arena_strndup(a, parts[i], lens[i]);
	return 0;
}

static bool any(const char *s)
{
	return !*s || !strcmp(s, "*");
}

/* profile-N and tick-N: N with an optional unit, as sonde's
 * UNIT:COUNT; NULL when it is not one. */
static const char *rate(struct arena *a, const char *s, bool tick)
{
	/* ns: the unit in nanoseconds (0: hertz) */
	static const struct { const char *unit, *as; long mul; double ns; }
	units[] = {
		{ "", "hz", 1, 0 }, { "hz", "hz", 1, 0 },
		{ "ns", "ns", 1, 1 }, { "nsec", "ns", 1, 1 },
		{ "us", "us", 1, 1e3 }, { "usec", "us", 1, 1e3 },
		{ "ms", "ms", 1, 1e6 }, { "msec", "ms", 1, 1e6 },
		{ "s", "s", 1, 1e9 }, { "sec", "s", 1, 1e9 },
		{ "m", "s", 60, 60e9 }, { "min", "s", 60, 60e9 },
		{ "h", "s", 3600, 3600e9 }, { "hour", "s", 3600, 3600e9 },
		{ "d", "s", 86400, 86400e9 }, { "day", "s", 86400, 86400e9 },
	};
	char *end;
	long n;

	if (!isdigit((unsigned char)*s))
		return NULL;
	n = strtol(s, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		/* dtrace offers no interval under 200 microseconds (5000 hz):
		 * such a description matches no probe */
		if (n <= 0 || (units[i].ns ? n * units[i].ns < 200e3 : n > 5000))
			return NULL;
		/* profile's timers take hz, s, ms and us */
		if (!tick && !strcmp(units[i].as, "ns"))
			return n % 1000 ? NULL :
			       arena_printf(a, "us:%ld", n / 1000);
		return arena_printf(a, "%s:%ld", units[i].as, n * units[i].mul);
	}
	return NULL;
}

/* D's proc, sched and io probes: the kernel tracepoint each is ("raw:"
 * a raw tracepoint, whose arguments give the tasks that args[] are
 * translated from: lang/dparse.c's D library, __d_args_PROV_NAME_K). */
static const struct {
	const char *prov, *name, *tp;
} tps[] = {
	{ "proc", "exec", "syscalls:sys_enter_execve" },
	{ "proc", "exec", "syscalls:sys_enter_execveat" },
	{ "proc", "exec-success", "sched:sched_process_exec" },
	{ "proc", "exec-failure", "syscalls:sys_exit_execve" },
	{ "proc", "exec-failure", "syscalls:sys_exit_execveat" },
	{ "proc", "exit", "sched:sched_process_exit" },
	{ "proc", "create", "raw:sched_process_fork" },
	{ "proc", "lwp-create", "raw:sched_process_fork" },
	{ "proc", "lwp-exit", "sched:sched_process_exit" },
	{ "proc", "signal-send", "raw:signal_generate" },
	{ "proc", "signal-discard", "raw:signal_generate" },
	{ "proc", "signal-handle", "raw:signal_deliver" },
	{ "sched", "on-cpu", "sched:sched_switch" },
	{ "sched", "off-cpu", "raw:sched_switch" },
	{ "sched", "wakeup", "raw:sched_wakeup" },
	{ "sched", "change-pri", "raw:sched_pi_setprio" },
	{ "io", "start", "raw:block_rq_issue" },
	{ "io", "done", "raw:block_rq_complete" },
};

/* S with each FROM replaced by TO (arena). */
static const char *dashes(struct arena *a, const char *s, const char *from,
			  const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	char *out, *o;

	for (const char *p = s; (p = strstr(p, from)); p += fl)
		n++;
	out = o = arena_alloc(a, strlen(s) + n * tl + 1);
	while (*s) {
		if (!strncmp(s, from, fl)) {
			memcpy(o, to, tl);
			o += tl;
			s += fl;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

/* "pid123", "pid$target", "myprov$target", "myprov123": the name and
 * where the process number starts (NULL: none). */
static const char *pid_suffix(const char *prov, size_t *namelen)
{
	const char *p = strchr(prov, '$');

	if (!p) {
		p = prov + strlen(prov);
		while (p > prov && isdigit((unsigned char)p[-1]))
			p--;
		if (!*p)
			return NULL;
	}
	*namelen = (size_t)(p - prov);
	return p;
}

/* A pid provider's description F: the process's own functions (-p,
 * -c or the pid in the provider's name find its files), at their
 * entry, their return, or an offset into them; what dtrace rejects
 * before looking at the process, with its tag in *DTAG. */
static int pid_specs(struct arena *a, const char *f[4], const char **out,
		     int *n, const char **why, const char **dtag)
{
	/* a.out stays: probe/ finds the process's program */
	const char *file = any(f[1]) ? "" : f[1];
	const char *fn = any(f[2]) ? "*" : f[2];
	bool glob = !*f[3] || strpbrk(f[3], "*?[");
	char *end;

	if (!strcmp(fn, "-")) {
		/* pid1234::-:ADDRESS: an address of the executable */
		if (*f[1] && strcmp(f[1], "a.out")) {
			*dtag = "D_PROC_LIB";
			*why = "only the a.out module is valid with the '-' function";
			return -1;
		}
		*dtag = "D_PROC_NAME";
		if (glob) {
			*why = "only individual addresses may be specified with the '-' function";
			return -1;
		}
		strtoull(f[3], &end, 16);
		if (*end) {
			*why = arena_printf(a, "'%s' is an invalid probe name", f[3]);
			return -1;
		}
		*dtag = NULL;
		out[(*n)++] = arena_printf(a, "uprobe:%s:0x%s", file, f[3]);
		return 0;
	}
	if (!*f[3] || !fnmatch(f[3], "entry", 0))
		out[(*n)++] = arena_printf(a, "uprobe:%s:%s", file, fn);
	if (!*f[3] || !fnmatch(f[3], "return", 0))
		out[(*n)++] = arena_printf(a, "uretprobe:%s:%s", file, fn);
	if (*n || glob) {	/* a glob over offsets matches none */
		if (!*n)
			*why = "pid probes are named entry, return or an offset";
		return *n ? 0 : -1;
	}
	strtoull(f[3], &end, 16);
	if (*end) {
		*dtag = "D_PROC_NAME";
		*why = arena_printf(a, "'%s' is an invalid probe name", f[3]);
		return -1;
	}
	out[(*n)++] = arena_printf(a, "uprobe:%s:%s+0x%s", file, fn, f[3]);
	return 0;
}

int d_probe_specs(struct arena *a, const char *desc, const char **out,
		  const char **ddesc, int *n, const char **why,
		  const char **dtag)
{
	const char *f[4], *r;
	size_t plen;
	const char *sfx;

	*n = 0;
	*dtag = NULL;
	for (int i = 0; i < D_SPECS_MAX; i++)
		ddesc[i] = desc;
	if (split(a, desc, f)) {
		*why = "too many fields: a description is provider:module:function:name";
		return -1;
	}
	if ((any(f[0]) || !strcmp(f[0], "dtrace")) && !*f[1] && !*f[2] &&
	    (!strcmp(f[3], "BEGIN") || !strcmp(f[3], "END"))) {
		out[(*n)++] = f[3];
		return 0;
	}
	if ((any(f[0]) || !strcmp(f[0], "profile")) && !*f[1] && !*f[2] &&
	    !strncmp(f[3], "profile-", 8) && (r = rate(a, f[3] + 8, false))) {
		out[(*n)++] = arena_printf(a, "profile:%s", r);
		return 0;
	}
	if ((any(f[0]) || !strcmp(f[0], "profile")) && !*f[1] && !*f[2] &&
	    !strncmp(f[3], "tick-", 5) && (r = rate(a, f[3] + 5, true))) {
		out[(*n)++] = arena_printf(a, "interval:%s", r);
		return 0;
	}
	/* ::openat:entry, no provider given: the system call's (fbt's
	 * functions are the kernel's names, __x64_sys_openat) */
	if (!strcmp(f[0], "syscall") ||
	    (!*f[0] && !any(f[2]) && (any(f[3]) || !strcmp(f[3], "entry") ||
				      !strcmp(f[3], "return")))) {
		const char *fn = any(f[2]) ? "*" : f[2];

		if (any(f[3]) || !strcmp(f[3], "entry"))
			out[(*n)++] = arena_printf(a, "tracepoint:syscalls:sys_enter_%s", fn);
		if (any(f[3]) || !strcmp(f[3], "return"))
			out[(*n)++] = arena_printf(a, "tracepoint:syscalls:sys_exit_%s", fn);
		if (!*n)
			*why = "syscall probes are named entry or return";
		for (int i = 0; !*f[0] && i < *n; i++)
			ddesc[i] = arena_printf(a, "syscall::%s:%s", f[2], f[3]);
		return *n ? 0 : -1;
	}
	if (!strcmp(f[0], "fbt")) {
		const char *fn = any(f[2]) ? "*" : f[2];

		if (any(f[3]) || !strcmp(f[3], "entry"))
			out[(*n)++] = arena_printf(a, "kprobe:%s", fn);
		if (any(f[3]) || !strcmp(f[3], "return"))
			out[(*n)++] = arena_printf(a, "kretprobe:%s", fn);
		if (!*n)
			*why = "fbt probes are named entry or return";
		return *n ? 0 : -1;
	}
	for (size_t i = 0; i < sizeof(tps) / sizeof(tps[0]) && *n < D_SPECS_MAX; i++)
		if (!strcmp(f[0], tps[i].prov) &&
		    (any(f[3]) || !strcmp(f[3], tps[i].name))) {
			/* each its own description: its D name */
			ddesc[*n] = arena_printf(a, "%s:::%s", tps[i].prov,
						 tps[i].name);
			out[(*n)++] = !strncmp(tps[i].tp, "raw:", 4) ?
				arena_printf(a, "rawtracepoint:%s", tps[i].tp + 4) :
				arena_printf(a, "tracepoint:%s", tps[i].tp);
		}
	if (*n)
		return 0;
	if (!strcmp(f[0], "sdt") || !strcmp(f[0], "tp")) {
		out[(*n)++] = arena_printf(a, "tracepoint:%s:%s",
					   any(f[1]) ? "*" : f[1],
					   any(f[3]) ? "*" : f[3]);
		return 0;
	}
	if (!strcmp(f[0], "rawtp")) {
		out[(*n)++] = arena_printf(a, "rawtracepoint:%s",
					   any(f[3]) ? "*" : f[3]);
		return 0;
	}
	sfx = pid_suffix(f[0], &plen);
	if (sfx && plen == 3 && !strncmp(f[0], "pid", 3))
		return pid_specs(a, f, out, n, why, dtag);
	/* a glob over providers (prov*:::): the USDT providers of the
	 * process -p or -c gives, whose names dtrace shows with the pid */
	if (!sfx && strpbrk(f[0], "*?[") && !any(f[0])) {
		sfx = f[0] + strlen(f[0]);
		plen = strlen(f[0]);
	}
	if (sfx) {
		/* DTrace spells a probe's "__" as "-": both are accepted */
		out[(*n)++] = arena_printf(a, "usdt:%s:%.*s:%s",
					   any(f[1]) || !strcmp(f[1], "a.out") ? "" : f[1],
					   (int)plen, f[0],
					   any(f[3]) ? "*" : dashes(a, f[3], "-", "__"));
		return 0;
	}
	*why = arena_printf(a, "no provider '%s' on Linux (docs/d-language.md lists them)",
			    *f[0] ? f[0] : "(empty)");
	return -1;
}

/* The D names of the probe sonde named SPEC, expanded from the
 * description DESC: the fields DESC names as they are, the rest from
 * SPEC. */
const char *d_probe_field(struct arena *a, const char *desc,
			  const char *spec, int field)
{
	const char *f[4];
	const char *p;

	if (split(a, desc, f))
		return "";
	if (field == 4)		/* FUNCTION:NAME, the firing line's */
		return arena_printf(a, "%s:%s", d_probe_field(a, desc, spec, 2),
				    d_probe_field(a, desc, spec, 3));
	if (!strcasecmp(spec, "BEGIN") || !strcasecmp(spec, "END")) {
		static const char *const dt[4] = { "dtrace", "", "", NULL };

		return field == 3 ? (spec[0] == 'b' || spec[0] == 'B' ? "BEGIN" : "END") :
		       dt[field];
	}
	if (!strncmp(spec, "tracepoint:syscalls:sys_", 24) && !strcmp(f[0], "syscall")) {
		p = spec + 24;
		if (field == 0)
			return "syscall";
		if (field == 1)
			return "vmlinux";
		if (field == 3)
			return !strncmp(p, "enter_", 6) ? "entry" : "return";
		return strchr(p, '_') ? strchr(p, '_') + 1 : p;
	}
	if (!strncmp(spec, "profile:", 8) || !strncmp(spec, "interval:", 9)) {
		static const char *const pr[4] = { "profile", "", "", NULL };

		return field == 3 ? f[3] : pr[field];
	}
	if (field == 0) {
		size_t plen;

		/* pid$target, shop1234: the provider's own name */
		return pid_suffix(f[0], &plen) ? arena_strndup(a, f[0], plen) : f[0];
	}
	if (field == 1 && (!strncmp(spec, "usdt:", 5) || !strncmp(spec, "uprobe:", 7) ||
			   !strncmp(spec, "uretprobe:", 10))) {
		/* the file's name, as DTrace names a module */
		const char *file = strchr(spec, ':') + 1;
		size_t l = strcspn(file, ":");
		const char *base = file;

		for (const char *q = file; q < file + l; q++)
			if (*q == '/')
				base = q + 1;
		return arena_strndup(a, base, (size_t)(file + l - base));
	}
	if (!strcmp(f[0], "sdt") || !strcmp(f[0], "tp")) {
		/* tracepoint:CATEGORY:NAME */
		const char *cat = strchr(spec, ':');
		const char *nm = strrchr(spec, ':');

		if (!cat || !nm)
			return "";
		if (field == 1)
			return arena_strndup(a, cat + 1, (size_t)(nm - cat - 1));
		return field == 3 ? nm + 1 : "";
	}
	if (!strcmp(f[0], "proc") || !strcmp(f[0], "sched") || !strcmp(f[0], "io"))
		return field == 1 ? "vmlinux" : f[field];
	if (!strncmp(spec, "usdt:", 5) && field == 3)
		return dashes(a, strrchr(spec, ':') + 1, "__", "-");
	if (!strncmp(spec, "usdt:", 5) && field == 2)
		return "";	/* not in the note: probe_d_field() finds it */
	if (field == 2 && (!*f[2] || strpbrk(f[2], "*?["))) {
		/* a wildcard's function: the spec's last field */
		p = strrchr(spec, ':');
		return p ? arena_strndup(a, p + 1, strcspn(p + 1, "+")) : "";
	}
	if (field == 1 && !*f[1] && (!strncmp(spec, "kprobe:", 7) ||
				     !strncmp(spec, "kretprobe:", 10) ||
				     !strncmp(spec, "tracepoint:", 11)))
		return "vmlinux";
	return f[field];
}

/* The types of args[] of the probes whose args[] D's library gives
 * (lang/dparse.c's __d_args_ inlines), '|'-separated. */
static const struct {
	const char *prov, *name, *types;
} argtypes[] = {
	{ "proc", "exec", "string" },
	{ "proc", "exec-failure", "int" },
	{ "proc", "exit", "int" },
	{ "proc", "create", "psinfo_t *" },
	{ "proc", "lwp-create", "lwpsinfo_t *|psinfo_t *" },
	{ "proc", "signal-send", "lwpsinfo_t *|psinfo_t *|int" },
	{ "proc", "signal-discard", "lwpsinfo_t *|psinfo_t *|int" },
	{ "proc", "signal-handle", "int|siginfo_t *|void (*)(void)" },
	{ "sched", "off-cpu", "lwpsinfo_t *|psinfo_t *" },
	{ "sched", "wakeup", "lwpsinfo_t *|psinfo_t *" },
	{ "sched", "change-pri", "lwpsinfo_t *|psinfo_t *|pri_t" },
	{ "io", "start", "bufinfo_t *|devinfo_t *|fileinfo_t *" },
	{ "io", "done", "bufinfo_t *|devinfo_t *|fileinfo_t *" },
};

void d_probe_describe(FILE *fp, const char *prov, const char *name)
{
	const char *types = NULL;
	bool stable = !strcmp(prov, "proc") || !strcmp(prov, "sched") ||
		      !strcmp(prov, "io");

	for (size_t i = 0; i < sizeof(argtypes) / sizeof(argtypes[0]); i++)
		if (!strcmp(argtypes[i].prov, prov) && !strcmp(argtypes[i].name, name))
			types = argtypes[i].types;
	fprintf(fp, "\n\tProbe Description Attributes\n"
		"\t\tIdentifier Names: Private\n"
		"\t\tData Semantics:   Private\n"
		"\t\tDependency Class: Unknown\n\n"
		"\tArgument Attributes\n"
		"\t\tIdentifier Names: %s\n"
		"\t\tData Semantics:   %s\n"
		"\t\tDependency Class: %s\n\n"
		"\tArgument Types\n",
		stable ? "Evolving" : "Private", stable ? "Evolving" : "Private",
		stable ? "ISA" : "Unknown");
	if (!types) {
		fprintf(fp, "\t\tNone\n\n");
		return;
	}
	for (int k = 0; *types; k++) {
		size_t l = strcspn(types, "|");

		fprintf(fp, "\t\targs[%d]: %.*s\n", k, (int)l, types);
		types += l + (types[l] == '|');
	}
	fputc('\n', fp);
}
