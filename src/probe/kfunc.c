/* kfunc.c - probes on kernel functions: kprobe:FUNC[+OFF] and
 * kretprobe:FUNC through the perf "kprobe" PMU (a wildcard as one
 * kprobe_multi link), fentry:FUNC and fexit:FUNC (bpftrace's kfunc,
 * kretfunc), BPF trampolines typed by BTF, and lsm:HOOK, a BPF LSM
 * program on a security hook, whose return value allows or denies. */
#include "probe/kinds.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/btf.h"
#include "catalog/info.h"
#include "catalog/ksyms.h"
#include "catalog/tracefs.h"

static bool is_ret(const struct probe_spec *ps)
{
	return probe_has(ps, PF_RETVAL);
}

static bool probe_has_ret(const struct probe_exp *x)
{
	return (x->ops->flags & PF_RETVAL) != 0;
}

/* Kernel function NAME; MOD: its module, when the probe named one
 * ("vmlinux" for the kernel's own), which its name then shows. */
static void add_kfunc(struct probe_exp *x, const char *name, const char *mod)
{
	struct compiler *c = x->c;
	struct probe_spec *ps;

	for (int i = 0; i < x->n; i++)	/* kallsyms repeats some names */
		if (!strcmp(x->v[i].func, name))
			return;
	ps = probe_add(x);
	ps->func = arena_strdup(&c->arena, name);
	if (mod)
		ps->name = arena_printf(&c->arena, "%s:%s:%s", x->ops->name,
					mod, name);
	else
		ps->name = arena_printf(&c->arena, "%s:%s", x->ops->name, name);
}

/* The names of available_filter_functions ("name" or "name [module]",
 * one per line) matching GLOB, and MOD (a glob of module names,
 * "vmlinux" the kernel's own) unless it is NULL; how many, or -1
 * without the file. */
static int filter_functions(struct probe_exp *x, const char *dir,
			    const char *glob, const char *mod)
{
	char path[512], *filter;
	size_t flen;
	int count = 0;

	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	if (read_file(path, &filter, &flen))
		return -1;
	for (char *p = filter; p < filter + flen;) {
		char *nl = memchr(p, '\n', (size_t)(filter + flen - p));
		char *blank, *in = "vmlinux";

		if (nl)
			*nl = 0;
		blank = strchr(p, ' ');
		if (blank) {
			*blank = 0;
			if (blank[1] == '[') {
				in = blank + 2;
				in[strcspn(in, "]")] = 0;
			}
		}
		if (*p && !fnmatch(glob, p, 0) && !strchr(p, '.') &&
		    (!mod || !fnmatch(mod, in, 0))) {
			add_kfunc(x, p, mod ? in : NULL);
			count++;
		}
		p = nl ? nl + 1 : filter + flen;
	}
	free(filter);
	return count;
}

/* Functions kprobes can attach to: the kernel's text symbols, limited
 * to available_filter_functions where tracefs lists them (which alone
 * says which module holds each: without it, MOD must match vmlinux). */
static int kernel_functions(struct probe_exp *x, const char *glob,
			    const char *mod)
{
	struct compiler *c = x->c;
	const char *dir = c->tracefs ? c->tracefs : tracefs_dir(NULL, NULL);
	struct ksyms ks;
	int count;

	/* tracefs lists what ftrace may trace; a kprobe (an int3) goes
	 * further, so a name it lacks is looked up in kallsyms too:
	 * Debian's 6.1 lists no __x64_sys_* wrapper, which bpftrace's own
	 * override() example probes */
	if (dir && (count = filter_functions(x, dir, glob, mod)) >= 0 &&
	    (count > 0 || probe_wild(glob) || c->tracefs))
		return count;
	if (mod && fnmatch(mod, "vmlinux", 0))
		return 0;
	if (ksyms_load(&ks, NULL))
		return -EPERM;
	count = 0;
	for (size_t i = 0; i < ks.n; i++) {
		if (!fnmatch(glob, ks.v[i].name, 0) && !strchr(ks.v[i].name, '.')) {
			add_kfunc(x, ks.v[i].name, mod ? "vmlinux" : NULL);
			count++;
		}
	}
	ksyms_free(&ks);
	return count;
}

/* Why kernel function NAME must not be probed by KIND, or NULL.  As
 * bpftrace 0.17: RCU's functions run inside the kprobe and BPF
 * machinery itself (a probe there recurses or stalls RCU), and a return
 * probe on the spin locks' fast paths deadlocks when the probe's own
 * code takes the lock the function returns holding. */
static const char *banned(const char *kind, const char *name)
{
	static const char *const ret_locks[] = {
		"_raw_spin_lock", "_raw_spin_lock_irqsave",
		"_raw_spin_unlock_irqrestore", "queued_spin_lock_slowpath",
	};

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__rcu_", 6))
		return "RCU's functions run inside the kprobe and BPF machinery, and probing them can hang the kernel";
	if (!strcmp(kind, "kretprobe"))
		for (size_t i = 0; i < ARRAY_SIZE(ret_locks); i++)
			if (!strcmp(name, ret_locks[i]))
				return "a return probe on a spin lock's fast path can deadlock the kernel";
	return NULL;
}

/* Drop the matches that must not be probed: an error for a function
 * named alone, silently from a wildcard's matches (as bpftrace). */
static int drop_banned(struct probe_exp *x, const char *fname)
{
	int k = 0;

	for (int i = 0; i < x->n; i++) {
		const char *why = banned(x->ops->name, x->v[i].func);

		if (why && !probe_wild(fname)) {
			probe_error(x, "%s:%s is refused: %s", x->ops->name,
				    x->v[i].func, why);
			return -1;
		}
		if (!why)
			x->v[k++] = x->v[i];
	}
	x->n = k;
	return 0;
}

/* kprobe:FUNC, kprobe:FUNC+OFF, kretprobe:FUNC, wildcards. */
/* Is TEXT an address (a number, as 0xffffffff81234567 or decimal)? */
static bool is_address(const char *text, uint64_t *addr)
{
	char *end;

	if (!isdigit((unsigned char)text[0]))
		return false;
	errno = 0;
	*addr = strtoull(text, &end, 0);
	return !errno && !*end;
}

/* kprobe:ADDR, kretprobe:ADDR (--unsafe): an address in the kernel's
 * text, probed as the function holding it plus the offset. */
static int kprobe_address(struct probe_exp *x, uint64_t addr)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name;
	uint64_t lo = 0, hi = 0;
	const struct ksym *sym;
	struct probe_spec *ps;
	struct ksyms ks;
	int rc;

	if (!c->unsafe) {
		probe_error(x, "%s:0x%llx: probing a bare address needs --unsafe",
			    kind, (unsigned long long)addr);
		return -1;
	}
	rc = ksyms_addr_of(NULL, "_stext", &lo);
	if (!rc)
		rc = ksyms_addr_of(NULL, "_etext", &hi);
	if (rc) {
		probe_error(x, "%s: cannot read the kernel's text addresses (/proc/kallsyms): %s",
			    kind, strerror(-rc));
		return -1;
	}
	if (addr < lo || addr >= hi) {
		probe_error(x, "%s: 0x%llx is not in the kernel's text",
			    kind, (unsigned long long)addr);
		return -1;
	}
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK)) {
		probe_error(x, "this kernel has no kprobe support (CONFIG_KPROBES is off); tracepoint and fentry probes may work instead");
		return -1;
	}
	if (ksyms_load(&ks, NULL)) {
		probe_error(x, "%s: cannot read the kernel's symbols (/proc/kallsyms)",
			    kind);
		return -1;
	}
	sym = ksyms_find(&ks, addr);
	if (!sym || (addr != sym->addr && probe_has_ret(x))) {
		probe_error(x, sym ? "%s: 0x%llx is not the start of a function"
			    : "%s: no kernel function holds 0x%llx", kind,
			    (unsigned long long)addr);
		ksyms_free(&ks);
		return -1;
	}
	ps = probe_add(x);
	ps->func = arena_strdup(&c->arena, sym->name);
	ps->uoffset = addr - sym->addr;
	ps->name = arena_printf(&c->arena, "%s:0x%llx", kind,
				(unsigned long long)addr);
	ksyms_free(&ks);
	return 0;
}

static int kprobe_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name, *mod = NULL;
	char *fname;
	uint64_t add;
	int rc;

	if (x->nf < 2 || x->nf > 3 || !*x->f[x->nf - 1] ||
	    (x->nf == 3 && !*x->f[1])) {
		probe_error(x, "%s probe type requires a kernel function, after its module if given: %s:vfs_read, %s:vmlinux:vfs_read",
			    kind, kind, kind);
		return -1;
	}
	fname = x->f[x->nf - 1];
	if (x->nf == 3)
		mod = x->f[1];
	else if (is_address(fname, &add))
		return kprobe_address(x, add);
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK)) {
		/* a wildcard matches nothing here (the block is skipped,
		 * as bpftrace 0.17 skips it); a function named is an error */
		if (probe_wild(fname))
			probe_missing(x, "%s: this kernel has no kprobe support (CONFIG_KPROBES is off), so %s matches nothing",
				      kind, fname);
		else
			probe_error(x, "this kernel has no kprobe support (CONFIG_KPROBES is off); tracepoint and fentry probes may work instead");
		return -1;
	}
	if (probe_func_offset(x, fname, &add))
		return -1;
	if (mod && !probe_wild(mod) && strcmp(mod, "vmlinux") &&
	    access(arena_printf(&c->arena, "/sys/module/%s", mod), F_OK)) {
		probe_error(x, "%s: module %s is not loaded", kind, mod);
		return -1;
	}
	rc = kernel_functions(x, fname, mod);
	if (rc < 0) {
		probe_error(x, "%s: cannot read the kernel's functions (/proc/kallsyms): %s",
			    kind, strerror(-rc));
		return -1;
	}
	if (drop_banned(x, fname))
		return -1;
	if (!x->n) {
		if (probe_wild(fname))
			probe_missing(x, "%s: no kernel function matches %s", kind,
				    fname);
		else
			probe_missing(x, "%s: kernel function %s not found (or not traceable)",
				    kind, fname);
		return -1;
	}
	/* Whether the kernel can attach them as one kprobe_multi program
	 * is a feature of the catalogue, found out once. */
	if ((x->n > 1 || probe_wild(fname)) && !c->kprobe_multi_checked) {
		c->kprobe_multi = info_kprobe_multi();
		c->kprobe_multi_checked = true;
	}
	for (int i = 0; i < x->n; i++) {
		x->v[i].uoffset = add;
		x->v[i].wild = probe_wild(fname) || (mod && probe_wild(mod));
		if (add)
			x->v[i].name = arena_printf(&c->arena, "%s+%llu",
						    x->v[i].name,
						    (unsigned long long)add);
	}
	return 0;
}

/* The functions a kprobe wildcard matched become one kprobe_multi
 * program, attached by one link, when the kernel can: attaching and
 * detaching hundreds then costs one system call, not hundreds.  A block
 * that tells them apart (probe, func) reads the name from a table
 * (bpf/cg_site.c) whose row is each function's link cookie.  Not with
 * -p (no pid filter on the link). */
static struct probe_spec *kprobe_merge(struct compiler *c,
				       struct probe_spec *v, int n, unsigned need,
				       const char *text)
{
	struct probe_spec *ps;

	if (c->target_pid || !c->kprobe_multi)
		return NULL;
	for (int i = 0; i < n; i++)
		if (!v[i].wild || v[i].uoffset)
			return NULL;
	ps = arena_alloc(&c->arena, sizeof(*ps));
	*ps = v[0];
	ps->multi = arena_alloc(&c->arena, sizeof(char *) * (size_t)n);
	for (int i = 0; i < n; i++)
		ps->multi[i] = v[i].func;
	ps->nmulti = n;
	ps->parts = need & MERGE_NAMES ? v : NULL;
	ps->name = arena_printf(&c->arena, "%s (%d functions)", text, n);
	return ps;
}

static void kprobe_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_KPROBE;
	if (ps->multi)
		pl->expected_attach_type = BPF_TRACE_KPROBE_MULTI;
}

/* All the functions of a kprobe wildcard through one kprobe_multi link. */
static int kprobe_multi_attach(const struct probe_spec *ps, int fd,
			       struct probe_env *env)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts);
	__u64 *cookies = NULL;
	int lfd, err;

	if (ps->parts) {	/* each function's row of the names */
		cookies = xcalloc((size_t)ps->nmulti, sizeof(*cookies));
		for (int i = 0; i < ps->nmulti; i++)
			cookies[i] = (__u64)i;
		opts.kprobe_multi.cookies = cookies;
	}
	opts.kprobe_multi.syms = ps->multi;
	opts.kprobe_multi.cnt = (uint32_t)ps->nmulti;
	opts.kprobe_multi.flags = is_ret(ps) ? BPF_F_KPROBE_MULTI_RETURN : 0;
	lfd = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &opts);
	err = errno;

	free(cookies);
	if (lfd < 0)
		return -err;
	probe_own_link(env, lfd);
	return 0;
}

static int kprobe_attach(const struct probe_spec *ps, int fd,
			 struct probe_env *env)
{
	if (ps->multi)
		return kprobe_multi_attach(ps, fd, env);
	return probe_pmu_attach(ps, fd, env, true, is_ret(ps));
}

static const char *kprobe_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (err == PROBE_ENOKPROBES)
		return "this kernel has no kprobe support (CONFIG_KPROBES is off); tracepoint and fentry probes may work instead";
	return NULL;
}

/* fentry:FUNC and fexit:FUNC: BTF functions, wildcards. */
static int fentry_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name, *why = NULL;
	struct btf *b;
	int cnt;

	if (x->nf >= 3 && !strcmp(x->f[1], "bpf"))
		return probe_bpf_expand(x);
	/* fentry:vmlinux:FUNC: the kernel's own functions */
	if (x->nf == 3 && *x->f[1] && !fnmatch(x->f[1], "vmlinux", 0)) {
		x->f[1] = x->f[2];
		x->nf = 2;
	} else if (x->nf == 3 && *x->f[1] && *x->f[2]) {
		probe_error(x, "%s:%s:%s: sonde traces the functions of vmlinux only, not yet those of module %s",
			    kind, x->f[1], x->f[2], x->f[1]);
		return -1;
	}
	if (x->nf != 2 || !*x->f[1]) {
		probe_error(x, "%s probe type requires 1 argument, a kernel function: %s:vfs_read",
			    kind, kind);
		return -1;
	}
	b = btf_kernel(c, &why);
	if (!b) {
		probe_error(x, "%s: %s", kind, why);
		return -1;
	}
	cnt = (int)btf__type_cnt(b);
	for (int id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *fn;
		struct probe_spec *ps;

		if (!btf_is_func(t))
			continue;
		fn = btf__name_by_offset(b, t->name_off);
		if (!fn || fnmatch(x->f[1], fn, 0))
			continue;
		ps = probe_add(x);
		ps->func = arena_strdup(&c->arena, fn);
		ps->attach_btf_id = id;
		ps->wild = probe_wild(x->f[1]);
		ps->name = arena_printf(&c->arena, "%s:%s", kind, fn);
	}
	if (!x->n) {
		if (probe_wild(x->f[1]))
			probe_missing(x, "%s: no kernel function in BTF matches %s",
				    kind, x->f[1]);
		else
			probe_missing(x, "%s: kernel function %s not found in BTF",
				    kind, x->f[1]);
		return -1;
	}
	return 0;
}

/* FN(ARG, HOOK, ID) for each security hook of B matching GLOB: its
 * bpf_lsm_HOOK functions, HOOK without the prefix. */
static void each_hook(const struct btf *b, const char *glob,
		      void (*fn)(void *arg, const char *hook, int id), void *arg)
{
	int cnt = (int)btf__type_cnt(b);

	for (int id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(b, (unsigned)id);
		const char *f = btf_is_func(t) ?
				btf__name_by_offset(b, t->name_off) : NULL;

		if (f && !strncmp(f, "bpf_lsm_", 8) && !fnmatch(glob, f + 8, 0))
			fn(arg, f + 8, id);
	}
}

static void add_hook(void *arg, const char *hook, int id)
{
	struct probe_exp *x = arg;
	struct probe_spec *ps = probe_add(x);

	ps->func = arena_printf(&x->c->arena, "bpf_lsm_%s", hook);	/* its BTF */
	ps->attach_btf_id = id;
	ps->wild = probe_wild(x->f[1]);
	ps->name = arena_printf(&x->c->arena, "lsm:%s", hook);
}

/* lsm:HOOK: the BPF LSM program of a security hook, attached to
 * bpf_lsm_HOOK (typed by its BTF, as fentry's functions: args.file);
 * wildcards over the hooks. */
static int lsm_expand(struct probe_exp *x)
{
	const char *why = NULL;
	struct btf *b;

	if (x->nf != 2 || !*x->f[1]) {
		probe_error(x, "lsm probe type requires 1 argument, a security hook: lsm:file_open");
		return -1;
	}
	if (!(b = btf_kernel(x->c, &why))) {
		probe_error(x, "lsm: %s", why);
		return -1;
	}
	each_hook(b, x->f[1], add_hook, x);
	if (!x->n) {
		probe_missing(x, "lsm: no security hook %s in BTF (the kernel's hooks are its bpf_lsm_* functions)",
			      x->f[1]);
		return -1;
	}
	return 0;
}

static void lsm_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_LSM;
	pl->expected_attach_type = BPF_LSM_MAC;
	pl->attach_btf_id = (uint32_t)ps->attach_btf_id;
}

/* A kernel that built BPF LSM but does not run it (bpf not in its lsm=
 * list) refuses the attachment. */
static const char *lsm_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (err == EINVAL || err == EOPNOTSUPP || err == 524 || err == EPERM)
		return "this kernel does not run BPF LSM programs (CONFIG_BPF_LSM, and bpf in the active LSMs: lsm=...,bpf on its command line); fentry override() on security_* hooks may work instead";
	return NULL;
}

/* A root that cannot load one: no BPF LSM (or no trampolines). */
static const char *lsm_load_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (geteuid() == 0 && (err == EPERM || err == EINVAL || err == ENOTSUP ||
			       err == EOPNOTSUPP || err == 524))
		return "this kernel does not load BPF LSM programs (it needs CONFIG_BPF_LSM and BPF trampolines)";
	return NULL;
}

static void list_hook(void *arg, const char *hook, int id)
{
	(void)arg; (void)id;
	printf("lsm:%s\n", hook);
}

static int lsm_list(const struct probe_ops *ops, const char *pattern,
		    bool verbose, int pid)
{
	struct btf *b = btf__load_vmlinux_btf();
	const char *want = pattern && strchr(pattern, ':') ?
			   strchr(pattern, ':') + 1 : "*";

	(void)ops; (void)verbose; (void)pid;
	if (!b)
		return 0;
	each_hook(b, want, list_hook, NULL);
	btf__free(b);
	return 0;
}

static void fentry_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_TRACING;
	pl->expected_attach_type = is_ret(ps) ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY;
	if (ps->modify_return)	/* override() */
		pl->expected_attach_type = BPF_MODIFY_RETURN;
	pl->attach_btf_id = (uint32_t)ps->attach_btf_id;
	pl->attach_prog_id = ps->attach_prog_id;
}

/* fentry/fexit: a BPF trampoline, owned by its link fd. */
static int fentry_attach(const struct probe_spec *ps, int fd,
			 struct probe_env *env)
{
	int lfd = bpf_raw_tracepoint_open(NULL, fd);

	(void)ps;
	if (lfd < 0)
		return -errno;
	probe_own_link(env, lfd);
	return 0;
}

static const char *fentry_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (err == ENOTSUP || err == EOPNOTSUPP || err == 524 || err == EINVAL)
		return "this kernel cannot attach fentry/fexit programs (no BPF trampoline); kprobe or tracepoint probes may work instead";
	return NULL;
}

/* A root that cannot load a tracing program: no BPF trampolines. */
static const char *fentry_load_explain(const struct probe_spec *ps, int err)
{
	if (ps->modify_return && err == EINVAL)
		return "override() in an fentry probe needs a function whose return the kernel lets BPF change: a security_* hook, or one on its error-injection list (/sys/kernel/debug/error_injection/list)";
	if (geteuid() == 0 && (err == EPERM || err == ENOTSUP ||
			       err == EOPNOTSUPP || err == 524))
		return "this kernel does not run fentry/fexit programs (no BPF trampoline support); kprobe or tracepoint probes may work instead";
	return NULL;
}

/* The functions tracefs says can be traced (available_filter_functions,
 * "name" or "name [module]" per line), in a table; false when the file
 * cannot be read (this host's kernel refuses it even to root). */
struct traceable {
	struct strmap names;
	struct arena arena;
};

static bool traceable_load(struct traceable *tr)
{
	const char *dir = tracefs_dir(NULL, NULL);
	char path[512], *text;
	size_t len;

	memset(tr, 0, sizeof(*tr));
	if (!dir)
		return false;
	snprintf(path, sizeof(path), "%s/available_filter_functions", dir);
	if (read_file(path, &text, &len))
		return false;
	for (char *p = text; p < text + len;) {
		size_t n = strcspn(p, " \n");
		char *nl = memchr(p, '\n', (size_t)(text + len - p));

		if (n && !memchr(p, '.', n))
			strmap_put(&tr->names, &tr->arena,
				   arena_strndup(&tr->arena, p, n), tr);
		p = nl ? nl + 1 : text + len;
	}
	free(text);
	return true;
}

static bool is_traceable(void *arg, const char *name)
{
	return strmap_get(&((struct traceable *)arg)->names, name) != NULL;
}

/* The spelling of the kind in PATTERN's first field: bpftrace 0.17's
 * kfunc/kretfunc names list as such, everything else as sonde's. */
static const char *listed_kind(const struct probe_ops *ops,
			       const char *pattern)
{
	size_t n = ops->alias2 ? strlen(ops->alias2) : 0;

	if (pattern && n && !strncmp(pattern, ops->alias2, n) &&
	    pattern[n] == ':')
		return ops->alias2;
	return ops->name;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -l kprobe:GLOB: the traceable functions, else (the file unreadable)
 * the kernel's text symbols, sorted, each once; nothing on a kernel
 * without kprobes. */
static int kprobe_list(const struct probe_ops *ops, const char *pattern,
		       bool verbose, int pid)
{
	struct traceable tr;
	struct ksyms ks = { 0 };
	const char **v = NULL;
	size_t n = 0;
	char full[512];

	(void)verbose;
	(void)pid;
	if (access("/sys/bus/event_source/devices/kprobe/type", R_OK))
		return 0;
	if (traceable_load(&tr)) {
		v = xmalloc(sizeof(*v) * (tr.names.len + 1));
		for (size_t i = 0; i < tr.names.cap; i++)
			if (tr.names.keys[i])
				v[n++] = tr.names.keys[i];
	} else if (!ksyms_load(&ks, NULL)) {
		v = xmalloc(sizeof(*v) * (ks.n + 1));
		for (size_t i = 0; i < ks.n; i++)
			if (!strchr(ks.v[i].name, '.'))
				v[n++] = ks.v[i].name;
	}
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i], v[i - 1]))
			continue;
		snprintf(full, sizeof(full), "%s:%s", ops->name, v[i]);
		if (!pattern || !fnmatch(pattern, full, 0))
			puts(full);
	}
	free(v);
	ksyms_free(&ks);
	arena_free(&tr.arena);
	return 0;
}

/* -l fentry:GLOB (kfunc:GLOB): the functions BTF describes that tracefs
 * says can be traced; -lv adds their parameters (and retval). */
static int fentry_list(const struct probe_ops *ops, const char *pattern,
		       bool verbose, int pid)
{
	struct traceable tr;
	bool have;
	int rc;

	(void)pid;
	if (pattern && strstr(pattern, ":bpf:")) {
		probe_bpf_list(ops->name, pattern);
		return 0;
	}
	if (!info_fentry())
		return 0;
	have = traceable_load(&tr);
	rc = btf_list_funcs(listed_kind(ops, pattern), pattern, verbose,
			    ops->kind == PK_FEXIT, have ? is_traceable : NULL,
			    &tr);
	arena_free(&tr.arena);
	return rc;
}

const struct probe_ops probe_kprobe_ops = {
	.name = "kprobe",
	.alias = "k",
	.kind = PK_KPROBE,
	.flags = PF_FUNC | PF_REGS | PF_TASK | PF_OVERRIDE,
	.ctx = CTX_REGS,
	.expand = kprobe_expand,
	.merge = kprobe_merge,
	.load = kprobe_load,
	.attach = kprobe_attach,
	.explain = kprobe_explain,
	.list = kprobe_list,
};

const struct probe_ops probe_kretprobe_ops = {
	.name = "kretprobe",
	.alias = "kr",
	.kind = PK_KRETPROBE,
	.flags = PF_FUNC | PF_RETVAL | PF_REGS | PF_TASK,
	.ctx = CTX_REGS,
	.expand = kprobe_expand,
	.merge = kprobe_merge,
	.load = kprobe_load,
	.attach = kprobe_attach,
	.explain = kprobe_explain,
	.list = kprobe_list,
};

const struct probe_ops probe_fentry_ops = {
	.name = "fentry",
	.alias = "f",
	.alias2 = "kfunc",
	.kind = PK_FENTRY,
	.flags = PF_FUNC | PF_TASK | PF_DPATH | PF_SKBOUT | PF_OVERRIDE |
		 PF_MODRET,
	.ctx = CTX_FUNC,
	.expand = fentry_expand,
	.load = fentry_load,
	.attach = fentry_attach,
	.explain = fentry_explain,
	.load_explain = fentry_load_explain,
	.list = fentry_list,
};

const struct probe_ops probe_fexit_ops = {
	.name = "fexit",
	.alias = "fr",
	.alias2 = "kretfunc",
	.kind = PK_FEXIT,
	.flags = PF_FUNC | PF_RETVAL | PF_TASK | PF_DPATH | PF_SKBOUT,
	.ctx = CTX_FUNC,
	.expand = fentry_expand,
	.load = fentry_load,
	.attach = fentry_attach,
	.explain = fentry_explain,
	.load_explain = fentry_load_explain,
	.list = fentry_list,
};

const struct probe_ops probe_lsm_ops = {
	.name = "lsm",
	.kind = PK_LSM,
	.flags = PF_TASK | PF_OVERRIDE | PF_MODRET,
	.ctx = CTX_FUNC,
	.expand = lsm_expand,
	.load = lsm_load,
	.attach = fentry_attach,
	.explain = lsm_explain,
	.load_explain = lsm_load_explain,
	.list = lsm_list,
};
