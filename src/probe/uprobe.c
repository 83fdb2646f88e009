/* uprobe.c - probes in user programs: uprobe:PATH:FUNC[+OFF],
 * uprobe:PATH:ADDRESS and uretprobe:PATH:FUNC on ELF symbols, and
 * usdt:PATH:[PROVIDER:]NAME on the stapsdt notes of static probes,
 * all through the perf "uprobe" PMU, in -p's process or -c's command.
 * The functions of one file a block matched, when nothing in it tells
 * them apart, are one uprobe_multi link. */
#include "probe/kinds.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/dwarf.h"
#include "catalog/elfsym.h"
#include "catalog/info.h"
#include "catalog/usdt.h"

struct ufuncs {
	struct probe_exp *x;
	const char *path;	/* the file sonde opens */
	const char *shown;	/* and the one probes are named by */
	uint64_t add;		/* FUNC+OFF */
	uint64_t past_end;	/* set: the offset is past FUNC's size */
};

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

/* One file a spec's file field names: the path sonde opens, and the
 * one its probes are named by (the path as written; a library's or a
 * program's resolved path when the field has no '/'). */
struct ufile {
	const char *path, *shown;
};

struct ufiles {
	struct ufile *v;
	int n, cap;
	enum { ONE_FILE, WILD_FILES, PROCESS_FILES } how;
};

static void add_file(struct probe_exp *x, struct ufiles *fs, const char *path,
		     const char *shown)
{
	if (fs->n == fs->cap) {
		struct ufile *v;

		fs->cap = fs->cap ? fs->cap * 2 : 8;
		v = arena_alloc(&x->c->arena, sizeof(*v) * (size_t)fs->cap);
		if (fs->n)
			memcpy(v, fs->v, sizeof(*v) * (size_t)fs->n);
		fs->v = v;
	}
	fs->v[fs->n].path = arena_strdup(&x->c->arena, path);
	fs->v[fs->n].shown = arena_strdup(&x->c->arena, shown);
	fs->n++;
}

/* With -p and an empty file field: the process's executable and the
 * libraries it has mapped, as bpftrace searches them. */
static int process_files(struct probe_exp *x, struct ufiles *fs)
{
	int pid = x->c->target_pid;
	char *names;

	if (pid <= 0) {
		probe_error(x, "%s: the file is missing: name one (%s:/bin/bash:...), or give -p PID to search a process's executable and libraries",
			    x->ops->name, x->ops->name);
		return -1;
	}
	names = elf_process_files(pid);
	for (const char *p = names; p && *p; p += strlen(p) + 1) {
		char *path = elf_resolve_path(p, pid);

		if (path && !elf_check(path))
			add_file(x, fs, path, p);
		free(path);
	}
	free(names);
	if (!fs->n) {
		probe_error(x, "%s: process %d has no ELF files to search (has it exited?)",
			    x->ops->name, pid);
		return -1;
	}
	fs->how = PROCESS_FILES;
	return 0;
}

/* Every ELF file the wildcard FIELD matches (glob(3)). */
static int wild_files(struct probe_exp *x, struct ufiles *fs,
		      const char *field)
{
	glob_t g;

	if (glob(field, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *path = realpath(g.gl_pathv[i], NULL);

			if (path && !elf_check(path))
				add_file(x, fs, path, g.gl_pathv[i]);
			free(path);
		}
	}
	globfree(&g);
	if (!fs->n) {
		probe_error(x, "%s: no ELF file matches %s", x->ops->name,
			    field);
		return -1;
	}
	fs->how = WILD_FILES;
	return 0;
}

/* The files FIELD names: a path or a library or program name resolved
 * as the dynamic linker would (-p's process first), the ELF files a
 * wildcard matches, or with -p and an empty field the process's. */
static int files_of(struct probe_exp *x, struct ufiles *fs, const char *field)
{
	const char *kind = x->ops->name;
	char *path;
	int rc;

	memset(fs, 0, sizeof(*fs));
	if (!*field)
		return process_files(x, fs);
	if (probe_wild(field))
		return wild_files(x, fs, field);
	path = elf_resolve_path(field, x->c->target_pid);
	if (!path) {
		probe_error(x, "%s: %s: no such file, library or program",
			    kind, field);
		return -1;
	}
	rc = elf_check(path);
	if (rc) {
		probe_error(x, "%s: %s: %s", kind, path,
			    rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		free(path);
		return -1;
	}
	add_file(x, fs, path, strchr(field, '/') ? field : path);
	free(path);
	fs->how = ONE_FILE;
	return 0;
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
	return arena_printf(&x->c->arena,
			    "process %d's executable and libraries",
			    x->c->target_pid);
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
	if (u->past_end) {
		probe_error(x, "%s: offset %llu is past the end of %s (%llu bytes)",
			    kind, (unsigned long long)u->add, fname,
			    (unsigned long long)u->past_end);
		return -1;
	}
	if (rc < 0) {
		probe_error(x, "%s: cannot read %s: %s", kind, u->path,
			    rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return -1;
	}
	return x->n - n;
}

/* uprobe:PATH:FUNC, uprobe:PATH:FUNC+OFF, uprobe:PATH:ADDRESS and
 * uretprobe:PATH:FUNC; FUNC may be a wildcard. */
static int uprobe_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name;
	struct ufuncs u = { x, NULL, NULL, 0, 0 };
	struct ufiles fs;
	char *fname;

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
				       struct probe_spec *v, int n,
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
			int *nok)
{
	int lfd = info_uprobe_multi_link(fd, ps->path, ps->umulti + lo,
					 (uint32_t)(hi - lo),
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
	rc = umulti_range(ps, fd, env, lo, mid, bad, nok);
	return rc ? rc : umulti_range(ps, fd, env, mid, hi, bad, nok);
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

	rc = umulti_range(ps, fd, env, 0, n, bad, &nok);
	for (int i = 0; !rc && i < n; i++) {
		char msg[1024];

		if (!bad[i])
			continue;
		if (!nok) {	/* none attached: the first one's reason */
			rc = -bad[i];
			break;
		}
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
	if (!u->first_provider)
		u->first_provider = arena_strdup(&c->arena, note->provider);
	else if (strcmp(u->first_provider, note->provider))
		u->several_providers = true;
}

static const char *notes_error(int rc)
{
	return rc == -ENOEXEC ? "not an ELF file" :
	       rc == -EINVAL ? "not an executable or a shared library" :
	       strerror(-rc);
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
	struct unotes u = { x, NULL, NULL, NULL, false };
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
			probe_error(x, "usdt: %s: %s", u.path, notes_error(rc));
			return -1;
		}
		nbad += bad;
	}
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

/* One probe of a file: its locations' operands, for -lv. */
struct usdt_row {
	const char *provider, *name;
	int nlocs, nargs;
	uint64_t sem;
	const char **ops;	/* nargs * the operand texts, ", "-joined */
	const char **types;
};

struct ulist {
	struct arena *a;
	struct vec rows;	/* struct usdt_row */
};

/* Is OP one of the ", "-separated operands of LIST? */
static bool has_op(const char *list, const char *op)
{
	size_t n = strlen(op);

	for (const char *p = list; p; p = strstr(p, ", ")) {
		if (*p == ',')
			p += 2;
		if (!strncmp(p, op, n) && (p[n] == 0 || p[n] == ','))
			return true;
	}
	return false;
}

static int row_cmp(const void *a, const void *b)
{
	const struct usdt_row *x = a, *y = b;
	int d = strcmp(x->provider, y->provider);

	return d ? d : strcmp(x->name, y->name);
}

static struct usdt_row *row_of(struct ulist *u, const struct usdt_note *n)
{
	struct usdt_row *r;

	for (size_t i = 0; i < u->rows.len; i++) {
		r = &VEC_AT(&u->rows, struct usdt_row, i);
		if (!strcmp(r->provider, n->provider) && !strcmp(r->name, n->name))
			return r;
	}
	r = vec_push(&u->rows);
	r->provider = arena_strdup(u->a, n->provider);
	r->name = arena_strdup(u->a, n->name);
	r->nargs = n->nargs;
	r->sem = n->sem;
	r->ops = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
	r->types = arena_alloc(u->a, sizeof(char *) * (size_t)(n->nargs + 1));
	return r;
}

static void usdt_row(void *arg, const struct usdt_note *n)
{
	struct ulist *u = arg;
	struct usdt_row *r = row_of(u, n);

	r->nlocs++;
	for (int k = 0; k < n->nargs && k < r->nargs; k++) {
		const struct usdt_arg *a = &n->arg[k];
		char *op = arena_strndup(u->a, n->args + a->text_off,
					 (size_t)a->text_len);

		if (!r->types[k])
			r->types[k] = a->loc == USDT_BAD ?
				arena_printf(u->a, "unreadable (%s)", a->err) :
				usdt_arg_type(a);
		if (!r->ops[k])
			r->ops[k] = op;
		else if (!has_op(r->ops[k], op))
			r->ops[k] = arena_printf(u->a, "%s, %s", r->ops[k], op);
	}
}

static void print_row(const struct usdt_row *r, const char *path, bool verbose)
{
	printf("usdt:%s:%s:%s\n", path, r->provider, r->name);
	if (!verbose)
		return;
	printf("    %d argument%s, %d location%s", r->nargs,
	       r->nargs == 1 ? "" : "s", r->nlocs, r->nlocs == 1 ? "" : "s");
	if (r->sem)
		printf(", semaphore 0x%llx", (unsigned long long)r->sem);
	printf("\n");
	for (int k = 0; k < r->nargs; k++)
		printf("    arg%d: %s (%s)\n", k, r->types[k], r->ops[k]);
}

/* Split "FILE[:PATTERN[:PATTERN]]" (arena copies). */
static char *usdt_pattern(struct arena *a, const char *text, char **prov,
			  char **name)
{
	char *file = arena_strdup(a, text), *rest = strchr(file, ':');

	*prov = *name = NULL;
	if (!rest)
		return file;
	*rest = 0;
	*name = rest + 1;
	rest = strchr(*name, ':');
	if (rest) {	/* PROVIDER:NAME */
		*rest = 0;
		*prov = *name;
		*name = rest + 1;
	}
	return file;
}

/* -l 'usdt:PATH[:PATTERN[:PATTERN]]': the file's probes, each once
 * however many locations it has.  One PATTERN matches the name or
 * "provider:name"; two match provider and name.  Without a file,
 * nothing: notes are listed file by file. */
static int usdt_list(const struct probe_ops *ops, const char *pattern,
		     bool verbose, int pid)
{
	struct arena a = { 0 };
	struct ulist u = { &a, VEC_INIT(struct usdt_row) };
	const char *colon = pattern ? strchr(pattern, ':') : NULL;
	char *file, *path, *prov, *name;
	int rc, nbad;

	(void)ops;
	if (!colon)
		return 0;
	file = usdt_pattern(&a, colon + 1, &prov, &name);
	path = elf_resolve_path(file, pid);
	if (!path) {
		fprintf(stderr, "sonde: usdt: %s: no such file, library or program\n",
			file);
		arena_free(&a);
		return 1;
	}
	rc = usdt_notes(path, NULL, NULL, usdt_row, &u, &nbad);
	if (rc < 0) {
		fprintf(stderr, "sonde: usdt: %s: %s\n", path, notes_error(rc));
		free(path);
		vec_free(&u.rows);
		arena_free(&a);
		return 1;
	}
	if (u.rows.len)
		qsort(u.rows.data, u.rows.len, sizeof(struct usdt_row), row_cmp);
	for (size_t i = 0; i < u.rows.len; i++) {
		struct usdt_row *r = &VEC_AT(&u.rows, struct usdt_row, i);
		char both[512];

		snprintf(both, sizeof(both), "%s:%s", r->provider, r->name);
		if (prov ? fnmatch(prov, r->provider, 0) || fnmatch(name, r->name, 0) :
		    name && fnmatch(name, r->name, 0) && fnmatch(name, both, 0))
			continue;
		print_row(r, strchr(file, '/') ? file : path, verbose);
	}
	if (nbad)
		fprintf(stderr, "sonde: usdt: %s: %d corrupt note%s skipped\n",
			path, nbad, nbad == 1 ? "" : "s");
	free(path);
	vec_free(&u.rows);
	arena_free(&a);
	return 0;
}

struct lfunc {
	const char *name;
	uint64_t addr;
};

struct lfuncs {
	struct arena *a;
	struct vec v;		/* struct lfunc */
};

static void add_lfunc(void *arg, const struct elf_func *f)
{
	struct lfuncs *l = arg;
	struct lfunc *lf = vec_push(&l->v);

	lf->name = arena_strdup(l->a, f->name);
	lf->addr = f->addr;
}

static int lfunc_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lfunc *)a)->name,
		      ((const struct lfunc *)b)->name);
}

/* -l 'uprobe:PATH[:PATTERN]', -l 'uretprobe:...': the file's functions
 * in byte order of their names, as bpftrace lists them; with -v a
 * uprobe's parameters from DWARF under each ("    const char* s"), as
 * bpftrace 0.17 prints them (nothing for a function DWARF does not
 * describe). */
static int uprobe_list(const struct probe_ops *ops, const char *pattern,
		       bool verbose, int pid)
{
	struct arena a = { 0 };
	struct lfuncs l = { &a, VEC_INIT(struct lfunc) };
	const char *colon = pattern ? strchr(pattern, ':') : NULL, *glob;
	struct compiler c;
	char *file, *path, *sep;
	int rc;

	if (!colon)
		return 0;
	file = arena_strdup(&a, colon + 1);
	sep = strchr(file, ':');
	glob = sep ? sep + 1 : "*";
	if (sep)
		*sep = 0;
	path = elf_resolve_path(file, pid);
	if (!path) {
		fprintf(stderr, "sonde: %s: %s: no such file, library or program\n",
			ops->name, file);
		arena_free(&a);
		return 1;
	}
	rc = elf_functions(path, *glob ? glob : "*", add_lfunc, &l);
	if (rc < 0) {
		fprintf(stderr, "sonde: %s: %s: %s\n", ops->name, path,
			rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		free(path);
		vec_free(&l.v);
		arena_free(&a);
		return 1;
	}
	if (l.v.len)
		qsort(l.v.data, l.v.len, sizeof(struct lfunc), lfunc_cmp);
	compiler_init(&c, "-", "", 0);
	for (size_t i = 0; i < l.v.len; i++) {
		struct lfunc *f = &VEC_AT(&l.v, struct lfunc, i);
		const struct dwarf_func *df;

		printf("%s:%s:%s\n", ops->name, strchr(file, '/') ? file : path,
		       f->name);
		if (!verbose || (ops->flags & PF_RETVAL) ||
		    dwarf_func(&c, path, f->name, f->addr, &df))
			continue;
		for (int k = 0; k < df->nparams; k++)
			printf("    %s%s%s\n", df->params[k].ctype,
			       *df->params[k].name ? " " : "", df->params[k].name);
	}
	compiler_free(&c);
	free(path);
	vec_free(&l.v);
	arena_free(&a);
	return 0;
}

const struct probe_ops probe_uprobe_ops = {
	.name = "uprobe",
	.alias = "u",
	.kind = PK_UPROBE,
	.flags = PF_FUNC | PF_REGS | PF_TASK | PF_USER,
	.ctx = CTX_REGS,
	.expand = uprobe_expand,
	.merge = uprobe_merge,
	.list = uprobe_list,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};

const struct probe_ops probe_uretprobe_ops = {
	.name = "uretprobe",
	.alias = "ur",
	.kind = PK_URETPROBE,
	.flags = PF_FUNC | PF_RETVAL | PF_REGS | PF_TASK | PF_USER,
	.ctx = CTX_REGS,
	.expand = uprobe_expand,
	.merge = uprobe_merge,
	.list = uprobe_list,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};

const struct probe_ops probe_usdt_ops = {
	.name = "usdt",
	.alias = "U",
	.kind = PK_USDT,
	.flags = PF_TASK | PF_USER,
	.ctx = CTX_USDT,
	.expand = usdt_expand,
	.list = usdt_list,
	.load = uprobe_load,
	.attach = uprobe_attach,
	.explain = uprobe_explain,
};
