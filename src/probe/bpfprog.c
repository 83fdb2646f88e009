/* bpfprog.c - fentry:bpf[:ID]:NAME and fexit:bpf[:ID]:NAME (bpftrace
 * 0.26): BPF trampolines on the programs already loaded in the kernel
 * (another tracer's, another sonde's) and on their subprograms, found
 * by the names their BTF gives them (func_info), each program walked
 * with BPF_PROG_GET_NEXT_ID.  A program without BTF cannot be traced
 * this way.  The spec keeps the program's id; the loader opens it as
 * the program's attach_prog_fd. */
#include "probe/kinds.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ID:... or a wildcard of ids: the program's id matches FIELD. */
static bool id_matches(const char *field, uint32_t id)
{
	char buf[16];

	if (!field)
		return true;
	snprintf(buf, sizeof(buf), "%u", id);
	return !fnmatch(field, buf, 0);
}

typedef void (*func_fn)(void *arg, uint32_t id, const char *name,
			uint32_t type_id, int nargs);

/* Call FN for each function of program FD (its main function first)
 * that its BTF names. */
static void prog_funcs(int fd, uint32_t id, func_fn fn, void *arg)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info), n;
	struct bpf_func_info *fi;
	struct btf *b;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || !info.btf_id ||
	    !info.nr_func_info)
		return;
	n = info.nr_func_info;
	fi = xcalloc(n, sizeof(*fi));
	memset(&info, 0, sizeof(info));
	info.nr_func_info = n;
	info.func_info_rec_size = sizeof(*fi);
	info.func_info = (uint64_t)(uintptr_t)fi;
	len = sizeof(info);
	b = NULL;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		b = btf__load_from_kernel_by_id(info.btf_id);
	for (uint32_t i = 0; b && i < n && i < info.nr_func_info; i++) {
		const struct btf_type *t = btf__type_by_id(b, fi[i].type_id);
		const struct btf_type *proto;
		const char *name;
		int nargs;

		if (!t || !btf_is_func(t))
			continue;
		name = btf__name_by_offset(b, t->name_off);
		proto = btf__type_by_id(b, t->type);
		nargs = proto && btf_is_func_proto(proto) ? btf_vlen(proto) : 0;
		/* the kernel saves 5 arguments for a function whose BTF it
		 * finds unreliable (a program's main function, entered as
		 * bpf_func(ctx, insnsi): Linux 6.1, measured), and fexit's
		 * return value follows them */
		if (i == 0)
			nargs = 5;
		if (name)
			fn(arg, id, name, fi[i].type_id, nargs);
	}
	btf__free(b);
	free(fi);
}

/* Every running program whose id matches IDS (NULL: all): FN on its
 * functions.  0, or -errno when the programs cannot be listed. */
static int each_prog(const char *ids, func_fn fn, void *arg)
{
	uint32_t id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		int fd;

		if (!id_matches(ids, id))
			continue;
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;	/* gone since */
		prog_funcs(fd, id, fn, arg);
		close(fd);
	}
	return errno == ENOENT ? 0 : -errno;
}

struct bpf_exp {
	struct probe_exp *x;
	const char *glob;
};

static void add_func(void *arg, uint32_t id, const char *name,
		     uint32_t type_id, int nargs)
{
	struct bpf_exp *e = arg;
	struct probe_exp *x = e->x;
	struct probe_spec *ps;

	if (fnmatch(e->glob, name, 0))
		return;
	ps = probe_add(x);
	ps->func = arena_strdup(&x->c->arena, name);
	ps->attach_btf_id = (int)type_id;
	ps->attach_prog_id = id;
	ps->bpf_nargs = nargs;
	ps->name = arena_printf(&x->c->arena, "%s:bpf:%u:%s", x->ops->name,
				id, name);
}

struct bpf_list {
	const char *kind, *pattern;
};

static void list_func(void *arg, uint32_t id, const char *name,
		      uint32_t type_id, int nargs)
{
	struct bpf_list *l = arg;
	char full[512];

	(void)type_id;
	(void)nargs;
	snprintf(full, sizeof(full), "%s:bpf:%u:%s", l->kind, id, name);
	if (!l->pattern || !fnmatch(l->pattern, full, 0))
		puts(full);
}

void probe_bpf_list(const char *kind, const char *pattern)
{
	struct bpf_list l = { kind, pattern };

	each_prog(NULL, list_func, &l);
}

int probe_bpf_expand(struct probe_exp *x)
{
	const char *kind = x->ops->name, *ids = NULL, *glob;
	struct bpf_exp e;
	int rc;

	if (x->nf < 3 || x->nf > 4 || !*x->f[x->nf - 1] ||
	    (x->nf == 4 && !*x->f[2])) {
		probe_error(x, "%s:bpf needs a program's name, after its id if given: %s:bpf:NAME, %s:bpf:ID:NAME",
			    kind, kind, kind);
		return -1;
	}
	if (x->nf == 4)
		ids = x->f[2];
	glob = x->f[x->nf - 1];
	e.x = x;
	e.glob = glob;
	rc = each_prog(ids, add_func, &e);
	if (rc) {
		probe_error(x, "%s:bpf: cannot list the kernel's BPF programs: %s",
			    kind, strerror(-rc));
		return -1;
	}
	if (!x->n) {
		probe_missing(x, "%s: no running BPF program with BTF has a function %s%s%s",
			      kind, glob, ids ? " in program " : "",
			      ids ? ids : "");
		return -1;
	}
	for (int i = 0; i < x->n; i++)
		x->v[i].wild = probe_wild(glob) || (ids && probe_wild(ids)) ||
			       x->n > 1;
	return 0;
}
