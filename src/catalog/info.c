/* info.c - what this kernel offers, one "name: yes|no" per line. */
#include "catalog/info.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <elfutils/version.h>
#include <errno.h>
#include <stdlib.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

static int map_ok(enum bpf_map_type type, int k, int v, int n)
{
	int fd = bpf_map_create(type, NULL, (uint32_t)k, (uint32_t)v,
				(uint32_t)n, NULL);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static const char *yn(int b)
{
	return b ? "yes" : "no";
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* Can a program of TYPE (attached as ATTACH to kernel function FN, if
 * given) be loaded?  A two-instruction program: r0 = 0; exit. */
static int prog_ok(enum bpf_prog_type type, enum bpf_attach_type attach,
		   const char *fn)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts);
	int fd;

	if (fn) {
		struct btf *b = btf__load_vmlinux_btf();
		int id = b ? btf__find_by_name_kind(b, fn, attach == BPF_TRACE_RAW_TP ?
						    BTF_KIND_TYPEDEF : BTF_KIND_FUNC) : -1;

		if (b)
			btf__free(b);
		if (id < 0)
			return 0;
		opts.expected_attach_type = attach;
		opts.attach_btf_id = (unsigned)id;
	}
	fd = bpf_prog_load(type, NULL, "GPL", insns, 2, &opts);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Can a uprobe's program sleep (Linux 6.0)?  A KPROBE program loaded
 * sleepable that copies a byte with bpf_copy_from_user, which only
 * sleepable programs may call. */
bool info_sleepable_uprobe(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = -8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = 1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = 0 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_copy_from_user },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), &opts);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool info_uprobe_write_ctx(void)
{
	/* r2 = 0; ctx->ax = r2; r0 = 0; exit */
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = 0 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 1, .src_reg = 2,
		  .off = 80 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns,
			       sizeof(insns) / sizeof(insns[0]), NULL);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool info_kprobe_multi(void)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_KPROBE_MULTI);
	LIBBPF_OPTS(bpf_link_create_opts, lopts);
	const char *sym = "vfs_read";
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &opts);
	int link;

	if (fd < 0)
		return false;
	lopts.kprobe_multi.syms = &sym;
	lopts.kprobe_multi.cnt = 1;
	link = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lopts);
	close(fd);
	if (link < 0)
		return false;
	close(link);
	return true;
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

const char *info_missing_caps(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	bool bpf, perfmon;

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) != 0)
		return NULL;
#define HAS(cap) ((d[(cap) / 32].effective >> ((cap) % 32)) & 1)
	if (HAS(CAP_SYS_ADMIN))
		return NULL;
	bpf = HAS(CAP_BPF);
	perfmon = HAS(CAP_PERFMON);
#undef HAS
	if (!bpf && !perfmon)
		return "CAP_BPF and CAP_PERFMON";
	if (!bpf)
		return "CAP_BPF";
	if (!perfmon)
		return "CAP_PERFMON";
	return NULL;
}

/* BPF_LINK_CREATE's attribute for uprobe_multi, laid out as in
 * Linux 6.6's union bpf_attr. */
struct uprobe_multi_attr {
	uint32_t prog_fd, target_fd, attach_type, flags;
	uint64_t path, offsets, ref_ctr_offsets, cookies;
	uint32_t cnt, um_flags, pid;
};

int info_uprobe_multi_link(int prog, const char *path, const uint64_t *offsets,
			   const uint64_t *cookies, uint32_t cnt, bool ret,
			   int pid)
{
	struct uprobe_multi_attr a;
	int fd;

	memset(&a, 0, sizeof(a));	/* the padding too: the kernel checks */
	a.prog_fd = (uint32_t)prog;
	a.attach_type = INFO_TRACE_UPROBE_MULTI;
	a.path = (uint64_t)(uintptr_t)path;
	a.offsets = (uint64_t)(uintptr_t)offsets;
	a.cookies = (uint64_t)(uintptr_t)cookies;
	a.cnt = cnt;
	a.um_flags = ret ? INFO_F_UPROBE_MULTI_RETURN : 0;
	a.pid = pid > 0 ? (uint32_t)pid : 0;
	fd = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : fd;
}

bool info_uprobe_multi(void)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = (enum bpf_attach_type)INFO_TRACE_UPROBE_MULTI);
	uint64_t off = 0;
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &opts);
	int link;

	if (fd < 0)
		return false;
	link = info_uprobe_multi_link(fd, "/", &off, NULL, 1, false, 0);
	close(fd);
	if (link >= 0) {
		close(link);
		return true;
	}
	return link == -EBADF;
}

/* BPF_RAW_TRACEPOINT_OPEN's attributes as Linux 6.10 has them (the
 * uapi headers here end at prog_fd). */
struct rawtp_attr {
	uint64_t name;
	uint32_t prog_fd, pad;
	uint64_t cookie;
};

int info_rawtp_open(int prog, const char *name, uint64_t cookie)
{
	struct rawtp_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.name = (uint64_t)(uintptr_t)name;
	a.prog_fd = (uint32_t)prog;
	a.cookie = cookie;
	fd = (int)syscall(SYS_bpf, BPF_RAW_TRACEPOINT_OPEN, &a,
			  cookie ? sizeof(a) : offsetof(struct rawtp_attr, pad));
	return fd < 0 ? -errno : fd;
}

bool info_rawtp_cookie(void)
{
	/* r0 = bpf_get_attach_cookie(ctx); r0 = 0; exit: refused where
	 * raw tracepoints have no cookie helper */
	struct bpf_insn insns[3] = {
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_attach_cookie },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL, "GPL",
			       insns, 3, NULL);
	int link;

	if (fd < 0)
		return false;
	/* a tracepoint every kernel has, which this thread then leaves */
	link = info_rawtp_open(fd, "sched_process_free", 1);
	close(fd);
	if (link < 0)
		return false;
	close(link);
	return true;
}

/* A program of LEN instructions (r0 = 0 ..., exit; with LOOP, one that
 * counts down in a bounded loop) that loads as a socket filter. */
static int insns_ok(int len, bool loop)
{
	struct bpf_insn *v = calloc((size_t)len, sizeof(*v));
	int fd, n = 0;

	if (!v)
		return 0;
	if (loop) {	/* r0 = 4; again: r0 -= 1; if r0 != 0 goto again */
		v[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					    .imm = 4 };
		v[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_SUB | BPF_K,
					    .imm = 1 };
		v[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_JNE | BPF_K,
					    .off = -2 };
	}
	while (n < len - 1)
		v[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K };
	v[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", v,
			   (size_t)n, NULL);
	free(v);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int helper_ok(enum bpf_func_id id)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, id, NULL) == 1;
}

static int map_type_ok(enum bpf_map_type t)
{
	return libbpf_probe_bpf_map_type(t, NULL) == 1;
}

/* Can a hash map be read in batches (BPF_MAP_LOOKUP_BATCH)? */
static int batch_ok(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_HASH, NULL, 4, 4, 4, NULL);
	uint32_t keys[4], vals[4], out, n = 4;
	int rc;

	if (fd < 0)
		return 0;
	rc = bpf_map_lookup_batch(fd, NULL, &out, keys, vals, &n, NULL);
	close(fd);
	return rc == 0 || errno == ENOENT;
}

bool info_fentry(void)
{
	return prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "vfs_read");
}

/* bpftrace 0.17's --info sections, the same names, measured here, so
 * that what parses bpftrace's output reads sonde's. */
static void bpftrace_sections(FILE *f, bool bpf)
{
	struct utsname u;
	bool fentry = bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY,
				     "vfs_read");

	if (uname(&u) == 0)
		fprintf(f, "\nSystem\n  OS: %s %s %s\n  Arch: %s\n",
			u.sysname, u.release, u.version, u.machine);
	fprintf(f, "\nBuild\n  version: sonde-%s (the bpftrace 0.17 language)\n"
		"  LLVM: none (sonde writes BPF itself)\n  unsafe uprobe: no\n"
		"  bfd: no\n  libdw (DWARF support): yes\n", SONDE_VERSION);
	fprintf(f, "\nKernel helpers\n");
	fprintf(f, "  probe_read: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read)));
	fprintf(f, "  probe_read_str: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read_str)));
	fprintf(f, "  probe_read_user: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read_user)));
	fprintf(f, "  probe_read_user_str: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read_user_str)));
	fprintf(f, "  probe_read_kernel: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read_kernel)));
	fprintf(f, "  probe_read_kernel_str: %s\n", yn(bpf && helper_ok(BPF_FUNC_probe_read_kernel_str)));
	fprintf(f, "  get_current_cgroup_id: %s\n", yn(bpf && helper_ok(BPF_FUNC_get_current_cgroup_id)));
	fprintf(f, "  send_signal: %s\n", yn(bpf && helper_ok(BPF_FUNC_send_signal)));
	fprintf(f, "  override_return: %s\n", yn(bpf && helper_ok(BPF_FUNC_override_return)));
	fprintf(f, "  get_boot_ns: %s\n", yn(bpf && helper_ok(BPF_FUNC_ktime_get_boot_ns)));
	/* both for tracing programs: fentry's */
	fprintf(f, "  dpath: %s\n  skboutput: %s\n", yn(fentry), yn(fentry));
	fprintf(f, "\nKernel features\n  Instruction limit: %d\n",
		bpf && insns_ok(4097, false) ? 1000000 : 4096);
	fprintf(f, "  Loop support: %s\n", yn(bpf && insns_ok(8, true)));
	fprintf(f, "  btf: %s\n", yn(exists("/sys/kernel/btf/vmlinux")));
	fprintf(f, "  map batch: %s\n", yn(bpf && batch_ok()));
	fprintf(f, "  uprobe refcount: %s\n",
		yn(exists("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset")));
	fprintf(f, "\nMap types\n  hash: %s\n  percpu hash: %s\n  array: %s\n"
		"  percpu array: %s\n  stack_trace: %s\n  perf_event_array: %s\n"
		"  ringbuf: %s\n",
		yn(bpf && map_type_ok(BPF_MAP_TYPE_HASH)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_PERCPU_HASH)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_ARRAY)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_PERCPU_ARRAY)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_STACK_TRACE)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_PERF_EVENT_ARRAY)),
		yn(bpf && map_type_ok(BPF_MAP_TYPE_RINGBUF)));
	fprintf(f, "\nProbe types\n  kprobe: %s\n  tracepoint: %s\n"
		"  perf_event: %s\n  kfunc: %s\n",
		yn(exists("/sys/bus/event_source/devices/kprobe")),
		yn(exists("/sys/kernel/tracing/events") ||
		   exists("/sys/kernel/debug/tracing/events")),
		yn(exists("/proc/sys/kernel/perf_event_paranoid")), yn(fentry));
	fprintf(f, "  iter:task: %s\n  iter:task_file: %s\n",
		yn(bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "bpf_iter_task")),
		yn(bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "bpf_iter_task_file")));
	fprintf(f, "  kprobe_multi: %s\n  raw_tp_special: %s\n",
		yn(bpf && info_kprobe_multi()),
		yn(bpf && libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_RAW_TRACEPOINT, NULL) == 1));
}

int info_print(FILE *f)
{
	int bpf = map_ok(BPF_MAP_TYPE_ARRAY, 4, 8, 1);

	struct utsname u;

	fprintf(f, "version: sonde %s, libbpf %d.%d, libelf 0.%d, zlib %s\n",
		SONDE_VERSION, LIBBPF_MAJOR_VERSION, LIBBPF_MINOR_VERSION,
		_ELFUTILS_VERSION, zlibVersion());
	if (uname(&u) == 0)
		fprintf(f, "kernel: %s %s\n", u.release, u.machine);
	fprintf(f, "bpf: %s\n", yn(bpf));
	fprintf(f, "ringbuf: %s\n", yn(bpf && map_ok(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096)));
	fprintf(f, "percpu_hash: %s\n", yn(bpf && map_ok(BPF_MAP_TYPE_PERCPU_HASH, 8, 8, 16)));
	fprintf(f, "btf: %s\n", yn(exists("/sys/kernel/btf/vmlinux")));
	fprintf(f, "kprobe: %s\n", yn(exists("/sys/bus/event_source/devices/kprobe")));
	fprintf(f, "kprobe_multi: %s\n", yn(bpf && info_kprobe_multi()));
	fprintf(f, "fentry: %s\n", yn(bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "vfs_read")));
	fprintf(f, "fexit: %s\n", yn(bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "vfs_read")));
	fprintf(f, "tp_btf: %s\n", yn(bpf && prog_ok(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, "btf_trace_sched_switch")));
	fprintf(f, "uprobe: %s\n", yn(exists("/sys/bus/event_source/devices/uprobe")));
	fprintf(f, "uprobe_multi: %s\n", yn(bpf && info_uprobe_multi()));
	/* usdt semaphores through the uprobe reference counter */
	fprintf(f, "uprobe_ref_ctr: %s\n",
		yn(exists("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset")));
	fprintf(f, "perf_event: %s\n", yn(exists("/proc/sys/kernel/perf_event_paranoid")));
	fprintf(f, "tracefs: %s\n", yn(exists("/sys/kernel/tracing/events") ||
				       exists("/sys/kernel/debug/tracing/events")));
	bpftrace_sections(f, bpf);
	return 0;
}
