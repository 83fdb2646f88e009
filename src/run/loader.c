/* loader.c - maps and programs into the kernel.
 *
 * Programs load without a verifier log first (fast path); only when
 * the kernel rejects one is it loaded again with a growing log, whose
 * last instruction is mapped back to the script line it came from.
 */
#include "run/tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/info.h"
#include "out/usyms.h"
#include "run/unwind.h"

/* The kernel refuses stack maps deeper than this sysctl (127 unless an
 * administrator changed it). */
static int max_stack_sysctl(void)
{
	char *text;
	size_t len;
	long v = KSTACK_MAX_DEPTH;

	if (read_file("/proc/sys/kernel/perf_event_max_stack", &text, &len) == 0) {
		v = strtol(text, NULL, 10);
		free(text);
	}
	return (int)v;
}

/* Entries of a kernel stack map: bpftrace 0.17's 131072 when that takes
 * at most 32 MiB of kernel memory (the kernel preallocates every
 * entry), else the largest power of two that does: 16384 for 127
 * frames, made in 5 ms where 131072 take 170 ms and 136 MiB.  Stacks
 * hash to buckets; a stack whose bucket holds another is lost (and
 * counted), so the map is kept much larger than the stacks it holds. */
static int stack_entries(int depth)
{
	uint64_t per = (uint64_t)depth * 8 + 32;	/* bucket header */
	int n = 131072;

	while (n > 1024 && (uint64_t)n * per > (32u << 20))
		n /= 2;
	return n;
}

const char *ld_explain(int err)
{
	switch (err) {
	case EPERM: case EACCES: {
		/* name exactly what is missing */
		const char *m = info_missing_caps();

		if (!m)
			return "the kernel refused to load BPF programs although sonde has CAP_BPF and CAP_PERFMON (kernel lockdown, or a security module?)";
		if (!strcmp(m, "CAP_BPF"))
			return "loading BPF programs needs CAP_BPF, which this process lacks (it has CAP_PERFMON): run sonde with sudo";
		if (!strcmp(m, "CAP_PERFMON"))
			return "loading tracing programs needs CAP_PERFMON, which this process lacks (it has CAP_BPF): run sonde with sudo";
		return "loading BPF programs needs root, or CAP_BPF and CAP_PERFMON, which this process lacks: run sonde with sudo";
	}
	case ENOSYS:
		return "this kernel has no bpf() system call (CONFIG_BPF_SYSCALL is off)";
	case EINVAL:
		return "the kernel does not support a BPF feature sonde needs (Linux 5.8 or newer is required)";
	default:
		return strerror(err);
	}
}

/* What map_create() says of a map the kernel did not make. */
static int map_failed(struct tracer *t, const char *name, int err)
{
	if (err == EPERM || err == EACCES || err == ENOSYS)
		return rt_fail(t, err, "%s", ld_explain(err));
	return rt_fail(t, err, "cannot create map %s: %s", name,
		       ld_explain(err));
}

static void map_made(struct tracer *t, enum bpf_map_type type,
		     const char *name, int ksize, int vsize, int entries)
{
	if (t->verbose)
		rt_warn(t, "map %s: type %d, key %d, value %d, %d entries",
			name, type, ksize, vsize, entries);
}

static int map_create_flags(struct tracer *t, enum bpf_map_type type,
			    const char *name, int ksize, int vsize,
			    int entries, uint32_t flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = flags);
	int fd = bpf_map_create(type, name, (uint32_t)ksize, (uint32_t)vsize,
				(uint32_t)entries, &o);

	if (fd < 0)
		return map_failed(t, name, errno);
	map_made(t, type, name, ksize, vsize, entries);
	return fd;
}

static int map_create(struct tracer *t, enum bpf_map_type type,
		      const char *name, int ksize, int vsize, int entries)
{
	return map_create_flags(t, type, name, ksize, vsize, entries, 0);
}

/* A merged program's table of names (bpf/cg_site.c): a row per
 * function, at the index its link gives it as cookie. */
static int make_sites(struct tracer *t, struct prog_spec *ps)
{
	const struct probe_spec *p = &ps->probe;
	int fd = map_create(t, BPF_MAP_TYPE_ARRAY, "sonde_sites", 4,
			    p->site_row, p->nmulti);

	if (fd < 0)
		return fd;
	ps->sites_fd = fd;
	for (uint32_t i = 0; i < (uint32_t)p->nmulti; i++)
		if (bpf_map_update_elem(fd, &i, p->sites + (size_t)i * (size_t)p->site_row,
					BPF_ANY))
			return map_failed(t, "sonde_sites", errno);
	return 0;
}

/* A raw_syscalls merge's selection (probe/tracepoint.c): at each of
 * its parts' system call numbers, the part's index + 1. */
static int make_sysnr(struct tracer *t, struct prog_spec *ps)
{
	const struct probe_spec *p = &ps->probe;
	int fd = map_create(t, BPF_MAP_TYPE_ARRAY, "sonde_sysnr", 4, 4,
			    SYS_NR_MAX);

	if (fd < 0)
		return fd;
	ps->sysnr_fd = fd;
	for (uint32_t i = 0; i < (uint32_t)p->nmulti; i++) {
		uint32_t key = (uint32_t)p->sys_nrs[i], v = i + 1;

		if (bpf_map_update_elem(fd, &key, &v, BPF_ANY))
			return map_failed(t, "sonde_sysnr", errno);
	}
	return 0;
}

/* Kernel map names: 15 chars of [A-Za-z0-9_.]. */
static void map_name(char *buf, size_t cap, const char *name)
{
	size_t n = 0;

	for (const char *p = name; *p && n + 1 < cap && n < 15; p++) {
		char ch = *p == '@' ? 'm' : *p;

		/* D's self->x: any other character reads as '_' */
		if (!isalnum((unsigned char)ch) && ch != '_' && ch != '.')
			ch = '_';
		buf[n++] = ch;
	}
	if (n == 1)
		buf[n++] = '_';
	buf[n] = 0;
}

static void patch(struct tracer *t, struct prog_spec *ps)
{
	struct compiler *c = t->c;

	for (int i = 0; i < ps->nrelocs; i++) {
		struct bpf_reloc *r = &ps->relocs[i];
		struct bpf_insn *in = &ps->insns[r->insn];
		uint64_t v = 0;

		switch (r->kind) {
		case RELOC_MAP_FD: in->imm = c->maps[r->arg]->fd; continue;
		case RELOC_SCRATCH_FD: in->imm = t->scratch_fd; continue;
		case RELOC_RINGBUF_FD: in->imm = t->rb.fd; continue;
		case RELOC_STATS: in->imm = t->stats_fd; continue;
		case RELOC_STACK_FD: in->imm = t->stack_fds[r->arg]; continue;
		case RELOC_USEEN_FD: in->imm = t->useen_fd; continue;
		case RELOC_UNW_FD: in->imm = t->unw_fds[r->arg]; continue;
		case RELOC_DWSTACK_FD: in->imm = t->dwstack_fds[r->arg]; continue;
		case RELOC_SKB_FD: in->imm = t->skb_fd; continue;
		case RELOC_SITES_FD: in->imm = ps->sites_fd; continue;
		case RELOC_SYSNR_FD: in->imm = ps->sysnr_fd; continue;
		case RELOC_START_NS: v = t->start_ns; break;
		case RELOC_NCPUS: v = (uint64_t)t->ncpus_online; break;
		case RELOC_CPID: v = (uint64_t)t->child_pid; break;
		case RELOC_PIDNS_DEV: v = t->pidns_dev; break;
		case RELOC_PIDNS_INO: v = t->pidns_ino; break;
		default: continue;
		}
		in[0].imm = (int32_t)(uint32_t)v;
		in[1].imm = (int32_t)(uint32_t)(v >> 32);
	}
}

/* The verifier log names failing instructions as "N: (code) ...";
 * find the last one. */
static int last_insn(const char *log)
{
	int last = -1;

	for (const char *p = log; *p;) {
		const char *nl = strchr(p, '\n');
		char *end;
		long v = strtol(p, &end, 10);

		if (end != p && *end == ':' && end[1] == ' ' && end[2] == '(')
			last = (int)v;
		if (!nl)
			break;
		p = nl + 1;
	}
	return last;
}

/* The first line of a rejected program's report: the verdict. *BUG:
 * whether it is sonde's fault (not a missing helper, not a loop the
 * verifier could not bound). */
static void verdict(FILE *f, const struct prog_spec *ps, const char *log,
		    int err, bool *bug)
{
	bool loop = strstr(log, "BPF program is too large") ||
		    strstr(log, "infinite loop detected");
	/* a helper this kernel lacks: bpf_override_return needs
	 * CONFIG_BPF_KPROBE_OVERRIDE, which many kernels leave out */
	const char *missing = strstr(log, "unknown func bpf_");

	*bug = !loop && !missing;
	if (missing) {
		int n = (int)strcspn(missing + 13, "#\n");

		fprintf(f, "probe %s: this kernel has no BPF helper %.*s%s\n",
			ps->probe.name, n, missing + 13,
			!strncmp(missing + 13, "bpf_override_return", 19) ?
			" (override() needs a kernel built with CONFIG_BPF_KPROBE_OVERRIDE)" : "");
	} else if (loop) {
		fprintf(f, "probe %s: the kernel's verifier could not prove that a loop ends (it follows at most 1 million instructions); give the loop a bound, as in while ($i < 1000)\n",
			ps->probe.name);
	} else {
		fprintf(f, "probe %s: the kernel's verifier rejected the program (%s)\n",
			ps->probe.name, strerror(err));
	}
}

/* The script line the failing instruction came from, with a caret. */
static void failing_line(FILE *f, struct compiler *c,
			 const struct prog_spec *ps, const char *log)
{
	int idx = last_insn(log), line = 0;
	struct loc l = { 0, 1, 0, 1, 0, 0 };
	const char *s = c->src;
	FILE *saved = c->diag.out;

	if (idx >= 0 && idx < ps->ninsns)
		line = ps->line[idx];
	if (line <= 0)
		return;
	for (int k = 1; k < line && s < c->src + c->srclen; s++)
		if (*s == '\n')
			k++;
	l.line = line;
	l.off = (int)(s - c->src);
	fprintf(f, "%s:%d: instruction %d came from this line:\n",
		c->diag.file, line, idx);
	c->diag.out = f;
	diag_show(&c->diag, l);
	c->diag.out = saved;
}

/* Why the kernel rejected PS's program, as t->err: the verdict, the
 * script line, the verifier log's last lines (they say why). */
static int verifier_report(struct tracer *t, struct prog_spec *ps,
			   const char *log, int err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *p, *tail = log + strlen(log);
	int nlines = 0, rc;
	bool bug;

	if (!f)
		return rt_fail(t, err, "probe %s: the kernel's verifier rejected the program (%s)",
			       ps->probe.name, strerror(err));
	verdict(f, ps, log, err, &bug);
	failing_line(f, t->c, ps, log);
	for (p = tail; p > log; p--) {
		if (p[-1] == '\n' && p != tail && ++nlines > 8)
			break;
	}
	fprintf(f, "verifier log (last lines):\n%s", p);
	if (tail > log && tail[-1] != '\n')
		fputc('\n', f);
	if (bug)
		fputs("this is a bug in sonde: please report it with the script\n", f);
	fclose(f);
	if (len && text[len - 1] == '\n')
		text[len - 1] = 0;
	rc = rt_fail(t, err, "%s", text ? text : "");
	free(text);
	return rc;
}

/* The kernel name of PS's program. */
static void prog_name(const struct prog_spec *ps, char name[16])
{
	map_name(name, 16, ps->probe.name);
	for (char *q = name; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9')))
			*q = '_';
}

/* What the verifier needs to know of a program's subprograms (the
 * pieces of a long body: docs/internals.md, "Long bodies"): a BTF
 * object with a FUNC per function, main included, each global and
 * `int f(void *ctx)`, the pieces' argument tagged "arg:ctx" (the
 * context, Linux 6.8), and where each function starts. */
struct funcs {
	int btf_fd;
	int target_fd;		/* fentry:bpf: the traced program, or -1 */
	struct bpf_func_info *info;
};

static void put_u32(char **p, uint32_t v)
{
	memcpy(*p, &v, 4);
	*p += 4;
}

static void put_type(char **p, uint32_t name, uint32_t kind, uint32_t vlen,
		     uint32_t type)
{
	put_u32(p, name);
	put_u32(p, kind << 24 | vlen);
	put_u32(p, type);
}

/* 0, or -errno.  The main function is named as the program is (the
 * kernel names a program with BTF after its first function: in stacks
 * and perf's symbols, bpf_prog_TAG_NAME). */
static int load_btf(const struct prog_spec *ps, struct funcs *f)
{
	char fixed[17 + 16] = "\0int\0ctx\0arg:ctx";
	enum { S_INT = 1, S_CTX = 5, S_TAG = 9, S_MAIN = 17 };
	int n = ps->nfuncs;
	size_t strs = sizeof(fixed) + (size_t)n * 16;
	size_t types = 16 + 12 + 20 + 12 + (size_t)n * (12 + 16);
	struct btf_header *h;
	char *blob = xcalloc(1, sizeof(*h) + types + strs), *p, *q;
	int err = 0;

	h = (struct btf_header *)blob;
	p = blob + sizeof(*h);
	put_type(&p, S_INT, BTF_KIND_INT, 0, 4);		/* 1: int */
	put_u32(&p, BTF_INT_SIGNED << 24 | 32);
	put_type(&p, 0, BTF_KIND_PTR, 0, 0);			/* 2: void * */
	put_type(&p, 0, BTF_KIND_FUNC_PROTO, 1, 1);		/* 3: int (void *) */
	put_u32(&p, S_CTX);
	put_u32(&p, 2);
	put_type(&p, S_MAIN, BTF_KIND_FUNC, BTF_FUNC_GLOBAL, 3);	/* 4 */
	prog_name(ps, fixed + S_MAIN);
	if (!fixed[S_MAIN] || (fixed[S_MAIN] >= '0' && fixed[S_MAIN] <= '9'))
		snprintf(fixed + S_MAIN, 16, "main");
	q = xcalloc(1, strs);
	memcpy(q, fixed, sizeof(fixed));
	for (int k = 0; k < n; k++) {
		size_t off = sizeof(fixed) + (size_t)k * 16;

		snprintf(q + off, 16, k < ps->nglobal ? "piece%d" : "func%d",
			 k + 1);
		put_type(&p, (uint32_t)off, BTF_KIND_FUNC, k < ps->nglobal ?
			 BTF_FUNC_GLOBAL : BTF_FUNC_STATIC, 3);
	}
	for (int k = 0; k < ps->nglobal; k++) {	/* the argument: the context */
		put_type(&p, S_TAG, BTF_KIND_DECL_TAG, 0, (uint32_t)(5 + k));
		put_u32(&p, 0);
	}
	h->magic = BTF_MAGIC;
	h->version = BTF_VERSION;
	h->hdr_len = sizeof(*h);
	h->type_off = 0;
	h->type_len = (uint32_t)(p - (blob + sizeof(*h)));
	h->str_off = h->type_len;
	h->str_len = (uint32_t)strs;
	memcpy(p, q, strs);
	free(q);
	f->btf_fd = bpf_btf_load(blob, sizeof(*h) + h->type_len + strs, NULL);
	if (f->btf_fd < 0)
		err = -errno;
	free(blob);
	if (err)
		return err;
	f->info = xmalloc(sizeof(*f->info) * ((size_t)n + 1));
	f->info[0].insn_off = 0;
	f->info[0].type_id = 4;
	for (int k = 0; k < n; k++) {
		f->info[k + 1].insn_off = (uint32_t)ps->funcs[k];
		f->info[k + 1].type_id = (uint32_t)(5 + k);
	}
	return 0;
}

static void funcs_free(struct funcs *f)
{
	if (f->btf_fd >= 0)
		close(f->btf_fd);
	if (f->target_fd >= 0)
		close(f->target_fd);
	free(f->info);
}

/* 0, or -errno when the subprograms' BTF does not load. */
static int prog_opts(const struct prog_spec *ps,
		     struct bpf_prog_load_opts *opts, struct funcs *f)
{
	int err;

	f->btf_fd = -1;
	f->target_fd = -1;
	f->info = NULL;
	opts->expected_attach_type = ps->load.expected_attach_type;
	opts->attach_btf_id = ps->load.attach_btf_id;
	if (ps->load.attach_prog_id) {
		f->target_fd = bpf_prog_get_fd_by_id(ps->load.attach_prog_id);
		if (f->target_fd < 0)
			return -errno;
		opts->attach_prog_fd = (uint32_t)f->target_fd;
	}
	if (ps->load.sleepable)
		opts->prog_flags |= BPF_F_SLEEPABLE;
	if (!ps->nfuncs)
		return 0;
	err = load_btf(ps, f);
	if (err) {
		funcs_free(f);
		return err;
	}
	opts->prog_btf_fd = (uint32_t)f->btf_fd;
	opts->func_info = f->info;
	opts->func_info_cnt = (uint32_t)ps->nfuncs + 1;
	opts->func_info_rec_size = sizeof(*f->info);
	return 0;
}

static double ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The fast path: a load without a verifier log.  A fd, or -errno; the
 * time it took (nearly all of it the verifier's) in ps->load_ms. */
static int try_load(struct prog_spec *ps)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	struct funcs f;
	char name[16];
	double t0 = ms_now();
	int fd, err;

	err = prog_opts(ps, &opts, &f);
	if (err)
		return err;
	prog_name(ps, name);
	fd = bpf_prog_load(ps->load.type, name, "GPL", ps->insns,
			   (size_t)ps->ninsns, &opts);
	err = errno;
	ps->load_ms = ms_now() - t0;
	funcs_free(&f);
	return fd >= 0 ? fd : -err;
}

/* -v: what loading PS cost the kernel.  The verifier's count of the
 * instructions it walked (bpf_prog_info.verified_insns, Linux 5.16) is
 * what its limit of a million applies to. */
static void say_loaded(struct tracer *t, const struct prog_spec *ps)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(ps->fd, &info, &len) == 0 &&
	    info.verified_insns)
		rt_warn(t, "loaded %s: %d instructions, %u verified, in %.1f ms",
			ps->probe.name, ps->ninsns, info.verified_insns,
			ps->load_ms);
	else
		rt_warn(t, "loaded %s: %d instructions, in %.1f ms",
			ps->probe.name, ps->ninsns, ps->load_ms);
}

/* Again with a log, growing it until the verifier's whole story fits:
 * a fd, or -errno after the report. */
static int load_logged(struct tracer *t, struct prog_spec *ps)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	size_t logsz = 1 << 20;
	struct funcs f;
	char name[16];
	int err = prog_opts(ps, &opts, &f);

	if (err)
		return rt_fail(t, err, "probe %s: its subprograms' BTF failed to load: %s (long bodies need Linux 6.8)",
			       ps->probe.name, strerror(-err));
	prog_name(ps, name);
	for (;;) {
		char *log = xmalloc(logsz);
		int fd;

		log[0] = 0;
		opts.log_buf = log;
		opts.log_size = (uint32_t)logsz;
		opts.log_level = 1;
		fd = bpf_prog_load(ps->load.type, name, "GPL", ps->insns,
				   (size_t)ps->ninsns, &opts);
		err = errno;
		if (fd >= 0) {	/* -d verifier, or loads with a log but
				 * not without? */
			if (t->debug_verifier)
				fprintf(stderr, "verifier log of %s:\n%s",
					ps->probe.name, log);
			free(log);
			funcs_free(&f);
			return fd;
		}
		if (err == ENOSPC && logsz < (1u << 28)) {
			free(log);
			logsz *= 4;
			continue;
		}
		fd = verifier_report(t, ps, log, err);
		free(log);
		funcs_free(&f);
		return fd;
	}
}

static int load_prog(struct tracer *t, struct prog_spec *ps)
{
	const char *why;
	int fd;

	if (t->debug_verifier)
		return load_logged(t, ps);
	fd = try_load(ps);
	if (fd >= 0)
		return fd;
	why = ps->probe.ops->load_explain ?
	      ps->probe.ops->load_explain(&ps->probe, -fd) : NULL;
	if (why)
		return rt_fail(t, fd, "probe %s: %s", ps->probe.name, why);
	if (fd == -EPERM || fd == -ENOSYS)
		return rt_fail(t, fd, "%s", ld_explain(-fd));
	return load_logged(t, ps);
}

#define MAX_LOADERS 16

struct loader {
	struct compiler *c;
	int first, step;
};

static void *load_some(void *arg)
{
	struct loader *l = arg;

	for (int i = l->first; i < l->c->nprogs; i += l->step) {
		int fd = try_load(&l->c->progs[i]);

		if (fd >= 0)
			l->c->progs[i].fd = fd;
	}
	return NULL;
}

/* Many programs (a tracepoint wildcard) load from one thread per
 * online CPU, 8 programs at least each: the verifier runs in the
 * loading thread.  Loading the 360 programs of
 * tracepoint:syscalls:sys_enter_* was half of the 57 ms it took to
 * attach them on 2 CPUs; from two threads the whole took 50 ms (the
 * kernel serialises part of the work, such as placing JITed code).
 * Only the fast path runs here; what it did not load, ld_load() loads
 * again in order, reporting the first failure as a lone load would. */
static void load_parallel(struct tracer *t)
{
	struct compiler *c = t->c;
	pthread_t tid[MAX_LOADERS];
	struct loader l[MAX_LOADERS];
	int n = t->ncpus_online, started = 0;

	if (n > MAX_LOADERS)
		n = MAX_LOADERS;
	if (n > c->nprogs / 8)
		n = c->nprogs / 8;
	if (n < 2)
		return;
	for (int k = 0; k < n; k++) {
		l[k].c = c;
		l[k].first = k;
		l[k].step = n;
		if (k > 0 && pthread_create(&tid[k], NULL, load_some, &l[k]))
			break;
		started = k + 1;
	}
	/* this thread takes the first share; a thread that did not start
	 * leaves its share to the sequential pass */
	load_some(&l[0]);
	for (int k = 1; k < started; k++)
		pthread_join(tid[k], NULL);
}

/* Processes whose first ustack or usym BPF reports; an evicted one is
 * reported again, which only makes user space read its maps again. */
#define USEEN_ENTRIES 16384

/* ustack and usym: the map of processes BPF has seen (cg_note_pid),
 * the mappings of processes from now on (usyms.c), and those of the
 * processes already running (only -p's with -p), as perf record does.
 * Before any probe is attached and before -c's command runs. */
static int usyms_start(struct tracer *t)
{
	int fd = map_create(t, BPF_MAP_TYPE_LRU_HASH, "sonde_useen", 4, 8,
			    USEEN_ENTRIES);

	if (fd < 0)
		return fd;
	t->useen_fd = fd;
	t->pr.usyms = us_new(t->verbose, fd);
	if (t->no_demangle)
		us_no_demangle(t->pr.usyms);
	if (t->no_usyms)
		us_no_symbols(t->pr.usyms);
	us_follow(t->pr.usyms, t->pr.ncpus_possible);
	if (t->target_pid > 0) {
		us_snapshot(t->pr.usyms, t->target_pid);
		/* in a container: its files, while it lives */
		us_note(t->pr.usyms, t->target_pid);
	}
	else
		us_snapshot_all(t->pr.usyms);
	return 0;
}

/* The stack walker's maps (run/unwind.c), and per stack depth the hash
 * of stacks it walked, shaped as the stack map's values; the rows of
 * the files of -p's process, --dwarf-pid's, -c's program and the
 * uprobes' files now. */
static int unwind_start(struct tracer *t)
{
	struct compiler *c = t->c;

	t->unw = unw_new(t->verbose, t->unw_fds);
	if (!t->unw)
		return map_failed(t, "sonde_unw_rows", errno);
	t->dwstack_fds = xmalloc(sizeof(int) * (size_t)(c->nstack_maps + 1));
	t->pr.dwstack_fds = t->dwstack_fds;
	for (int i = 0; i < c->nstack_maps; i++)
		t->dwstack_fds[i] = -1;
	for (int i = 0; i < c->nstack_maps; i++) {
		int depth = c->stack_depths[i], fd;
		char name[16];

		if (!(c->stack_needs[i] & STACK_NEED_WALK))
			continue;
		/* allocated as stacks come: a stack map of the same size
		 * takes its whole 32 MiB at once */
		snprintf(name, sizeof(name), "dwstack_%d", depth);
		fd = map_create_flags(t, BPF_MAP_TYPE_HASH, name, 4, depth * 8,
				      stack_entries(depth), BPF_F_NO_PREALLOC);
		if (fd < 0)
			return fd;
		t->dwstack_fds[i] = fd;
	}
	if (t->target_pid > 0)
		unw_preload_pid(t->unw, t->target_pid);
	if (t->command) {	/* its program: the first word */
		char *prog = xstrdup(t->command);

		prog[strcspn(prog, " \t\n")] = 0;
		unw_preload(t->unw, prog);
		free(prog);
	}
	for (int i = 0; i < t->ndwarf_pids; i++)
		unw_preload_pid(t->unw, t->dwarf_pids[i]);
	/* the files the script's uprobes and usdt probes are in: their
	 * events' stacks walk from the first one too */
	for (int i = 0; i < c->nprogs; i++) {
		const char *path = c->progs[i].probe.path;

		if (path && path[0] == '/')
			unw_preload(t->unw, path);
	}
	return 0;
}

/* The script's maps, the stack maps, the usyms state, the scratch
 * array: what each program may name. */
static int make_maps(struct tracer *t)
{
	struct compiler *c = t->c;
	int fd;

	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];
		char name[16];

		map_name(name, sizeof(name), m->name);
		fd = map_create(t, m->bpf_type, name, m->key_size, m->value_size,
				m->max_entries);
		if (fd < 0)
			return fd;
		m->fd = fd;
	}
	t->stack_fds = xmalloc(sizeof(int) * (size_t)(c->nstack_maps + 1));
	t->pr.stack_fds = t->stack_fds;
	for (int i = 0; i < c->nstack_maps; i++)
		t->stack_fds[i] = -1;
	for (int i = 0; i < c->nstack_maps; i++) {
		int depth = c->stack_depths[i];
		char name[16];

		if (!(c->stack_needs[i] & STACK_NEED_TRACE))
			continue;	/* only walked stacks of this depth */
		if (depth > max_stack_sysctl())
			return rt_fail(t, EINVAL, "stacks of %d frames need the sysctl kernel.perf_event_max_stack at %d or more, not %d: raise it or ask for fewer frames",
				       depth, depth, max_stack_sysctl());
		snprintf(name, sizeof(name), "kstack_%d", depth);
		fd = map_create(t, BPF_MAP_TYPE_STACK_TRACE, name, 4, depth * 8,
				stack_entries(depth));
		if (fd < 0)
			return fd;
		t->stack_fds[i] = fd;
	}
	if (c->uses_usyms) {
		int rc = usyms_start(t);

		if (rc)
			return rc;
	}
	if (c->uses_unwind) {
		int rc = unwind_start(t);

		if (rc)
			return rc;
	}
	if (c->nskb_paths) {	/* skboutput(): one perf buffer per CPU */
		fd = map_create(t, BPF_MAP_TYPE_PERF_EVENT_ARRAY, "sonde_skb", 4,
				4, t->pr.ncpus_possible);
		if (fd < 0)
			return fd;
		t->skb_fd = fd;
	}
	if (c->scratch_size) {
		fd = map_create(t, BPF_MAP_TYPE_PERCPU_ARRAY, "sonde_scratch", 4,
				c->scratch_size, 1);
		if (fd < 0)
			return fd;
		t->scratch_fd = fd;
	}
	return 0;
}

/* sonde's pid namespace, for pid(curr_ns): none (inode 0) when it is
 * the initial one (the kernel's PROC_PID_INIT_INO), or unreadable. */
static void pid_namespace(struct tracer *t)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) || st.st_ino == 0xEFFFFFFCu)
		return;
	t->pidns_dev = (uint64_t)st.st_dev;
	t->pidns_ino = (uint64_t)st.st_ino;
}

/* The clocks and CPUs the programs and the printer need. */
static void clocks(struct tracer *t)
{
	struct timespec mono, real;

	t->pr.ncpus_possible = libbpf_num_possible_cpus();
	if (t->pr.ncpus_possible <= 0)
		t->pr.ncpus_possible = 1;
	t->ncpus_online = (int)sysconf(_SC_NPROCESSORS_ONLN);
	pid_namespace(t);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	t->start_ns = (uint64_t)mono.tv_sec * 1000000000ULL + (uint64_t)mono.tv_nsec;
	t->pr.mono_to_epoch = ((int64_t)real.tv_sec * 1000000000LL + real.tv_nsec) -
			      (int64_t)t->start_ns;
}

int ld_load(struct tracer *t)
{
	struct compiler *c = t->c;
	int fd, rc;

	clocks(t);
	t->drops_seen = xcalloc((size_t)(c->nmaps ? c->nmaps : 1), sizeof(uint64_t));
	rc = make_maps(t);
	fd = rb_fd(&t->rb);	/* the runtime's, made while this ran */
	if (rc)
		return rc;
	if (fd < 0)
		return map_failed(t, "sonde_events", -fd);
	map_made(t, BPF_MAP_TYPE_RINGBUF, "sonde_events", 0, 0, t->rb.size);
	/* One element, so that programs reach the counters by address
	 * (BPF_PSEUDO_MAP_VALUE) and add atomically: no lookup. */
	fd = map_create(t, BPF_MAP_TYPE_ARRAY, "sonde_stats", 4,
			8 * (c->nstats > 0 ? c->nstats : 1), 1);
	if (fd < 0)
		return fd;
	t->stats_fd = fd;

	for (int i = 0; i < c->nprogs; i++) {
		if (c->progs[i].probe.sites && make_sites(t, &c->progs[i]))
			return -1;
		if (c->progs[i].probe.sys_nrs && make_sysnr(t, &c->progs[i]))
			return -1;
		patch(t, &c->progs[i]);
	}
	if (!t->debug_verifier)	/* each load logged, in order */
		load_parallel(t);
	for (int i = 0; i < c->nprogs; i++) {
		struct prog_spec *ps = &c->progs[i];

		if (ps->fd < 0) {
			fd = load_prog(t, ps);
			if (fd < 0)
				return fd;
			ps->fd = fd;
		}
		if (t->verbose)
			say_loaded(t, ps);
	}
	return 0;
}
