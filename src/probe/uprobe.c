/* uprobe.c - probes in user programs: uprobe:PATH:FUNC[+OFF],
 * uprobe:PATH:ADDRESS and uretprobe:PATH:FUNC on ELF symbols, and
 * usdt:PATH:[PROVIDER:]NAME on the stapsdt notes of static probes,
 * all through the perf "uprobe" PMU, in -p's process or -c's command.
 * The functions of one file a block matched, when nothing in it tells
 * them apart, are one uprobe_multi link. */
#include "probe/kinds.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/dwarf.h"
#include "catalog/elfsym.h"
#include "catalog/info.h"
#include "catalog/insn.h"
#include "catalog/usdt.h"
#include "lang/dparse.h"
#include "probe/ufiles.h"

struct ufuncs {
	struct probe_exp *x;
	const char *path;	/* the file sonde opens */
	const char *shown;	/* and the one probes are named by */
	uint64_t add;		/* FUNC+OFF */
	uint64_t past_end;	/* set: the offset is past FUNC's size */
	const char *inside;	/* set: FUNC+OFF is not where an
				 * instruction starts (or cannot be told) */
};

/* Whether FUNC+ADD starts an instruction of the code in PATH: 1, 0,
 * or -1 when the bytes cannot be read or decoded. */
static int at_instruction(const char *path, const struct elf_func *f,
			  uint64_t add)
{
	size_t want = (size_t)add + 15;
	uint8_t *code;
	ssize_t got;
	int fd, rc;

	if (f->size && want > f->size)
		want = (size_t)f->size;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	code = xmalloc(want);
	got = pread(fd, code, want, (off_t)f->offset);
	close(fd);
	rc = got > 0 ? insn_boundary(code, (size_t)got, add) : -1;
	free(code);
	return rc;
}

static void add_ufunc(void *arg, const struct elf_func *f)
{
	struct ufuncs *u = arg;
	struct compiler *c = u->x->c;
	const char *kind = u->x->ops->name;
	struct probe_spec *ps;

	/* an offset past the function's end would patch another one */
	if (u->add && f->size && u->add >= f->size) {
		u->past_end = f->size;
		return;
	}
	/* a breakpoint inside an instruction corrupts it */
	if (u->add && !c->unsafe) {
		int at = at_instruction(u->path, f, u->add);

		if (at <= 0) {
			u->inside = at < 0 ? "cannot tell whether it starts an instruction (sonde cannot decode the code before it)"
					   : "it is inside an instruction";
			return;
		}
	}
	ps = probe_add(u->x);
	ps->path = u->path;
	ps->user_mem = true;
	ps->uoffset = f->offset + u->add;
	ps->uvaddr = f->addr + u->add;
	ps->func = arena_strdup(&c->arena, f->name);
	ps->func_off = u->add;
	if (u->add)
		ps->name = arena_printf(&c->arena, "%s:%s:%s+%llu", kind,
					u->shown, f->name,
					(unsigned long long)u->add);
	else
		ps->name = arena_printf(&c->arena, "%s:%s:%s", kind, u->shown,
					f->name);
}

/* D's pid probes: module a.out is the process's program, no module
 * that and its libraries (-c's command has not started yet: the
 * libraries it will map). */
static int d_files(struct probe_exp *x, struct ufiles *fs, const char *field)
{
	struct compiler *c = x->c;
	char err[512], exe[64];
	char *path;
	long pid = d_named_pid(c, x->ddesc);
	int rc;

	if (!pid)
		pid = c->target_pid;
	if (pid > 0 && !c->settled) {
		elf_process_settle((int)pid);
		c->settled = true;
	}
	if (pid > 0 && !*field) {
		rc = ufiles_find(fs, &c->arena, x->ops->name, field, (int)pid,
				 err, sizeof(err));
		if (rc)
			probe_error(x, "%s", err);
		return rc;
	}
	snprintf(exe, sizeof(exe), "/proc/%ld/exe", pid);
	path = pid > 0 ? realpath(exe, NULL) :
	       c->d_program ? xstrdup(c->d_program) : NULL;
	if (!path) {
		probe_error(x, "%s: %s", x->ops->name, pid > 0 ?
			    "the process has exited" :
			    "no process: give -p PID or -c CMD for $target");
		return -1;
	}
	if (*field) {
		rc = ufiles_find(fs, &c->arena, x->ops->name, path, 0, err,
				 sizeof(err));
		if (rc)
			probe_error(x, "%s", err);
	} else {
		rc = ufiles_program(fs, &c->arena, path);
		if (rc)
			probe_error(x, "%s: %s: not an ELF program",
				    x->ops->name, path);
	}
	free(path);
	return rc;
}

/* The files a spec's file field names; an error is the spec's. */
static int files_of(struct probe_exp *x, struct ufiles *fs, const char *field)
{
	char err[512];
	int pid = 0;

	/* the files of a process sonde was handed (-p, or /proc/PID/exe
	 * as D's pid1234 names it): wait until it has exec'd */
	if (x->c->target_pid)
		pid = x->c->target_pid;
	else if (sscanf(field, "/proc/%d/exe", &pid) != 1)
		pid = 0;
	if (pid > 0 && !x->c->settled) {
		elf_process_settle(pid);
		x->c->settled = true;
	}
	if (x->ddesc && (!*field || !strcmp(field, "a.out")))
		return d_files(x, fs, field);
	if (ufiles_find(fs, &x->c->arena, x->ops->name, field,
			x->c->target_pid, err, sizeof(err)) == 0)
		return 0;
	probe_error(x, "%s", err);
	return -1;
}

/* Where a spec's files were looked for, for its "not found" message. */
static const char *files_text(struct probe_exp *x, const struct ufiles *fs,
			      const char *field)
{
	if (fs->how == ONE_FILE)
		return fs->v[0].path;
	if (fs->how == WILD_FILES)
		return arena_printf(&x->c->arena, "the files matching %s",
				    field);
	if (!x->c->target_pid)	/* D's -c: the program it runs */
		return arena_printf(&x->c->arena, "%s and its libraries",
				    fs->v[0].path);
	return arena_printf(&x->c->arena,
			    "process %d's executable and libraries",
			    x->c->target_pid);
}

/* Is virtual address ADDR inside a function of PATH (its symbols, or
 * a detached debug file's)?  A file without any is taken at its word. */
static bool in_function(const char *path, uint64_t addr)
{
	struct elf_symtab st;
	bool in;

	if (elf_symtab_load(path, &st))
		return true;
	in = !st.n || elf_symtab_find(&st, addr) != NULL;
	elf_symtab_free(&st);
	return in;
}

/* uprobe:PATH:ADDRESS, an address in the file. */
static int at_address(struct probe_exp *x, const struct ufile *uf,
		      const char *text)
{
	const char *path = uf->path;
	struct compiler *c = x->c;
	const char *kind = x->ops->name;
	struct probe_spec *ps;
	uint64_t addr, off;
	char *end;

	errno = 0;
	addr = strtoull(text, &end, 0);
	if (errno || *end) {
		probe_error(x, "%s: '%s' is not an address", kind, text);
		return -1;
	}
	if (elf_addr_to_offset(path, addr, &off)) {
		probe_error(x, "%s: address 0x%llx is not in a loaded segment of %s",
			    kind, (unsigned long long)addr, path);
		return -1;
	}
	if (!in_function(path, addr)) {
		probe_error(x, "%s: Could not resolve address: %s:0x%llx (it is in no function, and a uprobe there could patch data or the middle of an instruction)",
			    kind, uf->shown, (unsigned long long)addr);
		return -1;
	}
	ps = probe_add(x);
	ps->path = path;
	ps->user_mem = true;
	ps->uoffset = off;
	ps->uvaddr = addr;
	ps->func = arena_printf(&c->arena, "0x%llx", (unsigned long long)addr);
	ps->name = arena_printf(&c->arena, "%s:%s:0x%llx", kind, uf->shown,
				(unsigned long long)addr);
	return 0;
}

/* A source line's number in FIELD: a positive decimal, or -1. */
static int line_number(const char *field)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)field[0]))
		return -1;
	errno = 0;
	v = strtol(field, &end, 10);
	return errno || *end || v <= 0 || v > 0x7fffffff ? -1 : (int)v;
}

/* uprobe:PATH@FILE:LINE[:COL] (bpftrace 0.26): the first instruction
 * of the statement at that source location, from PATH's DWARF line
 * table, as a debugger puts a breakpoint there. */
static int at_source(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name, *at = strchr(x->f[1], '@');
	char *bin = arena_strndup(&c->arena, x->f[1], (size_t)(at - x->f[1]));
	const char *file = at + 1;
	int line = line_number(x->f[2]), col = x->nf == 4 ? line_number(x->f[3]) : 0;
	struct elf_symtab st;
	struct probe_spec *ps;
	struct ufiles fs;
	uint64_t *addrs, off;
	int n;

	if (x->ops->flags & PF_RETVAL) {
		probe_error(x, "%s: a source location takes uprobe, not %s",
			    kind, kind);
		return -1;
	}
	if (!*bin || !*file || line < 0 || col < 0) {
		probe_error(x, "%s at a source location needs a file, a source file and a line: %s:/bin/prog@file.c:42[:COLUMN]",
			    kind, kind);
		return -1;
	}
	if (files_of(x, &fs, bin))
		return -1;
	if (fs.how != ONE_FILE) {
		probe_error(x, "%s: a source location needs one file, not %s",
			    kind, files_text(x, &fs, bin));
		return -1;
	}
	n = dwarf_line_addrs(c, fs.v[0].path, file, line, col, &addrs);
	if (n < 0) {
		probe_error(x, "%s: %s has no DWARF line table to find %s:%d in",
			    kind, fs.v[0].path, file, line);
		return -1;
	}
	if (!n) {
		if (col)
			probe_missing(x, "%s: no statement of %s starts at line %d, column %d of %s",
				      kind, fs.v[0].path, line, col, file);
		else
			probe_missing(x, "%s: no statement of %s starts at line %d of %s",
				      kind, fs.v[0].path, line, file);
		return -1;
	}
	if (elf_addr_to_offset(fs.v[0].path, addrs[0], &off)) {
		probe_error(x, "%s: address 0x%llx of %s:%d is not in a loaded segment of %s",
			    kind, (unsigned long long)addrs[0], file, line,
			    fs.v[0].path);
		return -1;
	}
	ps = probe_add(x);
	ps->path = fs.v[0].path;
	ps->user_mem = true;
	ps->uoffset = off;
	ps->uvaddr = addrs[0];
	ps->func = arena_printf(&c->arena, "0x%llx", (unsigned long long)addrs[0]);
	if (!elf_symtab_load(ps->path, &st)) {
		const struct elf_sym *sym = elf_symtab_find(&st, addrs[0]);

		if (sym)
			ps->func = arena_strdup(&c->arena, sym->name);
		elf_symtab_free(&st);
	}
	ps->name = arena_printf(&c->arena, "%s:%s@%s:%s%s%s", kind,
				fs.v[0].shown, file, x->f[2],
				x->nf == 4 ? ":" : "", x->nf == 4 ? x->f[3] : "");
	return 0;
}

/* FNAME in a library that U->path, a library lacking it, needs: glibc
 * 2.34 moved libpthread's functions into libc, leaving libpthread.so.0
 * a stub that needs libc.so.6, where the dynamic linker finds
 * pthread_create for a program linked with -lpthread; so does sonde
 * (threadsnoop.bt's uprobe:libpthread:pthread_create).  U->path becomes
 * that library's. */
static void in_needed(struct probe_exp *x, struct ufuncs *u,
		      const char *fname)
{
	char *libs = elf_needed(u->path);
	const char *own = u->path;

	for (const char *l = libs; l && *l && !x->n; l += strlen(l) + 1) {
		char *p = elf_resolve_path(l, x->c->target_pid);

		if (!p)
			continue;
		u->path = arena_strdup(&x->c->arena, p);
		free(p);
		elf_functions(u->path, fname, add_ufunc, u);
	}
	if (!x->n)
		u->path = own;
	free(libs);
}

/* The functions of U->path matching FNAME, added; -1 after an error. */
static int functions(struct probe_exp *x, struct ufuncs *u, const char *fname,
		     bool needed)
{
	const char *kind = x->ops->name;
	int n = x->n, rc = elf_functions(u->path, fname, add_ufunc, u);

	if (rc == 0 && needed && !u->past_end && !probe_wild(fname))
		in_needed(x, u, fname);
	if (u->past_end && x->ddesc) {
		diag_error_d(&x->c->diag, x->loc, E_PROBE, "D_PROC_OFF",
			     "offset 0x%llx outside of function '%s'",
			     (unsigned long long)u->add, fname);
		return -1;
	}
	if (u->past_end) {
		probe_error(x, "%s: Offset outside the function bounds ('%s' size is %llu)",
			    kind, fname, (unsigned long long)u->past_end);
		return -1;
	}
	if (u->inside) {
		probe_error(x, "%s: Could not add uprobe into middle of instruction: %s:%s+%llu: %s; --unsafe attaches there anyway",
			    kind, u->shown, fname, (unsigned long long)u->add,
			    u->inside);
		return -1;
	}
	if (rc < 0) {
		probe_error(x, "%s: cannot read %s: %s", kind, u->path,
			    rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return -1;
	}
	return x->n - n;
}

/* Fewer leading underscores: the name a library documents (free, not
 * __libc_free). */
static bool plainer(const char *a, const char *b)
{
	return strspn(a, "_") < strspn(b, "_");
}

struct alias {
	uint64_t addr;
	const char *best;
	struct arena *a;
};

static void alias_of(void *arg, const struct elf_func *f)
{
	struct alias *al = arg;

	if (f->addr == al->addr && plainer(f->name, al->best))
		al->best = arena_strdup(al->a, f->name);
}

/* D: a function named with one of its names (_go, whose weak alias is
 * go) is the probe of its plainest one, as dtrace names it. */
static void plainest_alias(struct probe_exp *x, struct probe_spec *ps)
{
	struct alias al = { ps->uvaddr - ps->func_off, ps->func, &x->c->arena };

	if (!ps->func || !ps->path)
		return;
	elf_functions(ps->path, "*", alias_of, &al);
	if (al.best != ps->func) {	/* KIND:FILE:FUNC[+OFF] */
		const char *last = strrchr(ps->name, ':');

		ps->func = al.best;
		ps->name = ps->func_off ?
			arena_printf(&x->c->arena, "%.*s%s+%llu",
				     (int)(last - ps->name + 1), ps->name, al.best,
				     (unsigned long long)ps->func_off) :
			arena_printf(&x->c->arena, "%.*s%s",
				     (int)(last - ps->name + 1), ps->name, al.best);
	}
}

/* D: a function with several names (aliases: free and __libc_free) is
 * one probe, as dtrace makes it, by its plainest name; _init and _fini
 * are no wildcard's (dtrace leaves them out: old binaries gave them a
 * bloated size). */
static void one_per_address(struct probe_exp *x)
{
	int n = 0;

	for (int i = 0; i < x->n; i++) {
		int k = 0;

		if (x->v[i].func && (!strcmp(x->v[i].func, "_init") ||
				     !strcmp(x->v[i].func, "_fini")))
			continue;

		while (k < n && (x->v[k].uoffset != x->v[i].uoffset ||
				 strcmp(x->v[k].path, x->v[i].path)))
			k++;
		if (k == n)
			x->v[n++] = x->v[i];
		else if (plainer(x->v[i].func, x->v[k].func))
			x->v[k] = x->v[i];
	}
	x->n = n;
}

/* D: the module a pid probe's description names, not a wildcard
 * (a.out, libc.so.6); NULL for none. */
static const char *d_module_named(struct probe_exp *x)
{
	const char *d = x->ddesc, *m, *e;

	if (!d || !(m = strchr(d, ':')) || !(e = strchr(m + 1, ':')) ||
	    !strchr(e + 1, ':') || e == m + 1)
		return NULL;
	m = arena_strndup(&x->c->arena, m + 1, (size_t)(e - m - 1));
	return probe_wild(m) ? NULL : m;
}

/* uprobe:PATH:FUNC, uprobe:PATH:FUNC+OFF, uprobe:PATH:ADDRESS and
 * uretprobe:PATH:FUNC; FUNC may be a wildcard. */
static int uprobe_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name;
	struct ufuncs u = { x, NULL, NULL, 0, 0, NULL };
	struct ufiles fs;
	char *fname;

	if ((x->nf == 3 || x->nf == 4) && strchr(x->f[1], '@'))
		return at_source(x);
	if (x->nf >= 2 && strstr(x->f[1], "!/"))
		return probe_zip_expand(x);
	if (x->nf != 3 || !*x->f[2]) {
		probe_error(x, "%s probe needs a file and a function: %s:/bin/bash:readline",
			    kind, kind);
		return -1;
	}
	if (files_of(x, &fs, x->f[1]))
		return -1;
	fname = x->f[2];
	if (isdigit((unsigned char)fname[0])) {
		if (fs.how != ONE_FILE) {
			probe_error(x, "%s: an address needs one file, not %s",
				    kind, files_text(x, &fs, x->f[1]));
			return -1;
		}
		return at_address(x, &fs.v[0], fname);
	}
	if (probe_func_offset(x, fname, &u.add))
		return -1;
	for (int i = 0; i < fs.n; i++) {
		u.path = fs.v[i].path;
		u.shown = fs.v[i].shown;
		if (functions(x, &u, fname, fs.how == ONE_FILE) < 0)
			return -1;
	}
	if (!x->n) {
		const char *where = files_text(x, &fs, x->f[1]);

		if (fs.how == ONE_FILE)
			where = u.path;
		if (d_module_named(x) && !probe_wild(fname)) {
			/* dtrace: a function a module it names lacks is
			 * an error, not a description matching nothing */
			diag_error_d(&c->diag, x->loc, E_PROBE, "D_PROC_FUNC",
				     "failed to lookup '%s' in module '%s'",
				     fname, d_module_named(x));
			return -1;
		}
		if (probe_wild(fname))
			probe_missing(x, "%s: no function of %s matches %s",
				      kind, where, fname);
		else
			probe_missing(x, "%s: function %s not found in %s",
				      kind, fname, where);
		return -1;
	}
	/* one function the kernel cannot probe does not stop the others */
	for (int i = 0; i < x->n; i++)
		x->v[i].wild = probe_wild(fname);
	if (x->ddesc && probe_wild(fname))
		one_per_address(x);
	else if (x->ddesc)
		for (int i = 0; i < x->n; i++)
			plainest_alias(x, &x->v[i]);
	/* as for kprobes: can the kernel attach them as one program? */
	if (x->n > 1 && !c->uprobe_multi_checked) {
		c->uprobe_multi = info_uprobe_multi();
		c->uprobe_multi_checked = true;
	}
	return 0;
}

/* The functions of one file a uprobe block matched are one
 * uprobe_multi program on one link carrying their offsets: closing a
 * uprobe's perf event waits 85 ms in the kernel, one after the other,
 * so 1,000 of them took 84 s to detach; one link, 0.1 s.  -p and -c
 * filter by the link's pid. */
static struct probe_spec *uprobe_merge(struct compiler *c,
				       struct probe_spec *v, int n, unsigned need,
				       const char *text)
{
	struct probe_spec *ps;
	uint64_t *off;

	if (!c->uprobe_multi)	/* the expansion found the kernel cannot */
		return NULL;
	for (int i = 0; i < n; i++)
		if (strcmp(v[i].path, v[0].path))
			return NULL;
	ps = arena_alloc(&c->arena, sizeof(*ps));
	*ps = v[0];
	ps->multi = arena_alloc(&c->arena, sizeof(char *) * (size_t)n);
	off = arena_alloc(&c->arena, sizeof(*off) * (size_t)n);
	for (int i = 0; i < n; i++) {
		ps->multi[i] = v[i].func;
		off[i] = v[i].uoffset;
	}
	ps->umulti = off;
	ps->nmulti = n;
	ps->parts = need & MERGE_NAMES ? v : NULL;
	ps->name = arena_printf(&c->arena, "%s (%d functions)", text, n);
	return ps;
}

static void uprobe_load(const struct probe_spec *ps, struct probe_load *pl)
{
	pl->type = BPF_PROG_TYPE_KPROBE;
	if (ps->umulti)
		pl->expected_attach_type =
			(enum bpf_attach_type)INFO_TRACE_UPROBE_MULTI;
}

/* Offsets [LO, HI) of a uprobe_multi program on one link.  The kernel
 * refuses the whole link if it cannot probe one function (ENOTSUPP: a
 * lock-prefixed first instruction, as pthread_spin_lock's in libc;
 * EINVAL), so a refused range is halved until the functions at fault
 * stand alone: their errno goes in BAD, and the others attach on links
 * of their own.  Other errors concern them all and are returned. */
static int umulti_range(const struct probe_spec *ps, int fd,
			struct probe_env *env, int lo, int hi, int *bad,
			int *nok, const uint64_t *cookies)
{
	int lfd = info_uprobe_multi_link(fd, ps->path, ps->umulti + lo,
					 cookies + lo, (uint32_t)(hi - lo),
					 probe_has(ps, PF_RETVAL), env->pid);
	int mid, rc;

	if (lfd >= 0) {
		probe_own_link(env, lfd);
		*nok += hi - lo;
		return 0;
	}
	if (lfd != -524 && lfd != -EOPNOTSUPP && lfd != -EINVAL)
		return lfd;
	if (hi - lo == 1) {
		bad[lo] = -lfd;
		return 0;
	}
	mid = lo + (hi - lo) / 2;
	rc = umulti_range(ps, fd, env, lo, mid, bad, nok, cookies);
	return rc ? rc : umulti_range(ps, fd, env, mid, hi, bad, nok, cookies);
}

/* The functions of one file through one uprobe_multi link (or a few,
 * around functions the kernel cannot probe, which are skipped with a
 * warning, as a wildcard's unattachable probes are); in -p's process
 * or -c's command only, as single uprobes. */
static int uprobe_multi_attach(const struct probe_spec *ps, int fd,
			       struct probe_env *env)
{
	int n = ps->nmulti, nok = 0, rc;
	int *bad = xcalloc((size_t)n, sizeof(*bad));
	const char *kind = ps->ops->name;
	/* each function's cookie: its row of the names (bpf/cg_site.c) */
	uint64_t *cookies = xcalloc((size_t)n, sizeof(*cookies));

	for (int i = 0; i < n; i++)
		cookies[i] = (uint64_t)i;
	rc = umulti_range(ps, fd, env, 0, n, bad, &nok, cookies);
	free(cookies);
	for (int i = 0; !rc && i < n; i++) {
		char msg[1024];

		if (!bad[i])
			continue;
		if (!nok || !env->missing) {	/* the first one's reason */
			snprintf(env->failed, sizeof(env->failed), "%s:%s:%s",
				 kind, ps->path, ps->multi[i]);
			rc = -bad[i];
			break;
		}
		if (env->missing == 2)
			continue;
		/* as run/ says it of a single probe */
		snprintf(msg, sizeof(msg),
			 "probe %s:%s:%s: attach failed: %s\nsonde: warning: skipping %s:%s:%s",
			 kind, ps->path, ps->multi[i], probe_explain(ps, bad[i]),
			 kind, ps->path, ps->multi[i]);
		if (env->warn)
			env->warn(env->warn_arg, msg);
	}
	free(bad);
	return rc;
}

static int uprobe_attach(const struct probe_spec *ps, int fd,
			 struct probe_env *env)
{
	if (ps->umulti)
		return uprobe_multi_attach(ps, fd, env);
	return probe_pmu_attach(ps, fd, env, false, probe_has(ps, PF_RETVAL));
}

/* ENOTSUPP, the kernel's own 524, from the uprobe instruction decoder */
static const char *uprobe_explain(const struct probe_spec *ps, int err)
{
	(void)ps;
	if (err == 524 || err == EOPNOTSUPP)
		return "the kernel cannot put a uprobe on this instruction (a lock-prefixed one, for instance)";
	return NULL;
}

struct unotes {
	struct probe_exp *x;
	const char *path, *shown;
	const char *first_provider;	/* of the first match */
	bool several_providers;
	/* D: the file's functions, for the one holding each probe */
	struct elf_symtab st;
	const char *st_path;
};

/* One spec per note: a probe inlined in several places has a note,
 * and its own operands, at each. */
static void add_unote(void *arg, const struct usdt_note *note)
{
	struct unotes *u = arg;
	struct compiler *c = u->x->c;
	struct probe_spec *ps = probe_add(u->x);
	struct usdt_arg *args = arena_alloc(&c->arena, sizeof(*args) *
					    (size_t)(note->nargs + 1));

	memcpy(args, note->arg, sizeof(*args) * (size_t)note->nargs);
	ps->path = u->path;
	ps->user_mem = true;
	ps->uoffset = note->pc_offset;
	ps->uvaddr = note->pc;
	ps->ref_ctr_offset = note->sem_offset;
	ps->uargs = args;
	ps->nuargs = note->nargs;
	ps->usdt_args = arena_strdup(&c->arena, note->args);
	ps->name = arena_printf(&c->arena, "usdt:%s:%s:%s", u->shown,
				note->provider, note->name);
	if (u->x->ddesc) {	/* D's probefunc: the function holding it */
		const struct elf_sym *f;

		if (u->st_path != u->path) {
			if (u->st_path)
				elf_symtab_free(&u->st);
			memset(&u->st, 0, sizeof(u->st));
			elf_symtab_load(u->path, &u->st);
			u->st_path = u->path;
		}
		f = elf_symtab_find(&u->st, note->pc);
		ps->func = f ? arena_strdup(&c->arena, f->name) : NULL;
	}
	if (!u->first_provider)
		u->first_provider = arena_strdup(&c->arena, note->provider);
	else if (strcmp(u->first_provider, note->provider))
		u->several_providers = true;
}

/* No note matched: say which, and how many corrupt notes were skipped. */
static void no_note(struct probe_exp *x, const char *where,
		    const char *prov, const char *name, int nbad)
{
	char bad[80] = "";

	if (nbad)
		snprintf(bad, sizeof(bad), " (%d corrupt note%s skipped)",
			 nbad, nbad == 1 ? "" : "s");
	if (x->nf == 3)
		probe_missing(x, "usdt: no probe %s in %s%s", name, where, bad);
	else
		probe_missing(x, "usdt: no probe %s:%s in %s%s", prov, name,
			      where, bad);
}

/* usdt:PATH:PROVIDER:NAME and usdt:PATH:NAME (any provider, but only
 * one: bpftrace 0.17 refuses an ambiguous name too); wildcards in
 * PATH, PROVIDER and NAME; an empty PROVIDER is any; with -p an empty
 * PATH is the process's executable and libraries. */
static int usdt_expand(struct probe_exp *x)
{
	char **f = x->f;
	int nf = x->nf, nbad = 0;
	struct unotes u = { .x = x };
	struct ufiles fs;
	const char *prov, *name;

	if ((nf != 3 && nf != 4) || !*f[nf - 1]) {
		probe_error(x, "usdt probe needs a file and a probe: usdt:/path/prog:PROVIDER:NAME or usdt:/path/prog:NAME");
		return -1;
	}
	if (files_of(x, &fs, f[1]))
		return -1;
	prov = nf == 4 && *f[2] ? f[2] : "*";
	name = f[nf - 1];
	for (int i = 0; i < fs.n; i++) {
		int bad = 0, rc;

		u.path = fs.v[i].path;
		u.shown = fs.v[i].shown;
		rc = usdt_notes(u.path, prov, name, add_unote, &u, &bad);
		if (rc < 0 && fs.how == ONE_FILE) {
			probe_error(x, "usdt: %s: %s", u.path, ufiles_error(rc));
			if (u.st_path)
				elf_symtab_free(&u.st);
			return -1;
		}
		nbad += bad;
	}
	if (u.st_path)
		elf_symtab_free(&u.st);
	if (!x->n) {
		no_note(x, files_text(x, &fs, f[1]), prov, name, nbad);
		return -1;
	}
	if (nf == 3 && u.several_providers && !probe_wild(name)) {
		probe_error(x, "usdt: several providers of %s have a probe %s: name one, as in usdt:%s:%s:%s, or all with usdt:%s:*:%s",
			    u.path, name, f[1], u.first_provider, name, f[1],
			    name);
		return -1;
	}
	return 0;
}

const struct probe_ops probe_uprobe_ops = {
	.name = "uprobe",
	.alias = "u",
	.kind = PK_UPROBE,
	.flags = PF_FUNC | PF_REGS | PF_TASK | PF_USER | PF_LIFO | PF_SLEEP |
		 PF_OVERRIDE,
	.ctx = CTX_REGS,
	.expand = uprobe_expand,
	.list = ulist_uprobe,
	.merge = uprobe_merge,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};

const struct probe_ops probe_uretprobe_ops = {
	.name = "uretprobe",
	.alias = "ur",
	.kind = PK_URETPROBE,
	.flags = PF_FUNC | PF_RETVAL | PF_REGS | PF_TASK | PF_USER | PF_LIFO |
		 PF_SLEEP | PF_OVERRIDE,
	.ctx = CTX_REGS,
	.expand = uprobe_expand,
	.list = ulist_uprobe,
	.merge = uprobe_merge,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};

const struct probe_ops probe_usdt_ops = {
	.name = "usdt",
	.alias = "U",
	.kind = PK_USDT,
	.flags = PF_TASK | PF_USER | PF_LIFO | PF_SLEEP,
	.ctx = CTX_USDT,
	.expand = usdt_expand,
	.list = ulist_usdt,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};
