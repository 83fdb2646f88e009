/* info.c - what this kernel offers, one "name: yes|no" per line. */
#include "info.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <elfutils/version.h>
#include <errno.h>
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

/* uprobe_multi links (Linux 6.6): one link for many uprobes.  libbpf
 * 1.1 and the 6.1 uapi headers predate them, so the attribute is laid
 * out here: link_create's prog_fd, target_fd, attach_type, flags, then
 * uprobe_multi's path, offsets, ref_ctr_offsets, cookies, cnt.  A kernel
 * that knows the attach type fails to find the path (ENOENT); one that
 * does not refuses the attach type (EINVAL). */
static int uprobe_multi_ok(void)
{
	enum { TRACE_UPROBE_MULTI = 48 };
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = (enum bpf_attach_type)TRACE_UPROBE_MULTI);
	struct {
		uint32_t prog_fd, target_fd, attach_type, flags;
		uint64_t path, offsets, ref_ctr_offsets, cookies;
		uint32_t cnt, uflags, pid, pad;
	} attr;
	uint64_t off = 0x1000;
	const char *path = "/nonexistent/sonde-probe";
	int fd, link, err;

	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &opts);
	if (fd < 0)
		return 0;
	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = (uint32_t)fd;
	attr.attach_type = TRACE_UPROBE_MULTI;
	attr.path = (uint64_t)(uintptr_t)path;
	attr.offsets = (uint64_t)(uintptr_t)&off;
	attr.cnt = 1;
	link = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	err = errno;
	if (link >= 0)
		close(link);
	close(fd);
	return link >= 0 || err == ENOENT;
}

static const char *yn(int b)
{
	return b ? "yes" : "no";
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
	fprintf(f, "uprobe_multi: %s\n", yn(bpf && uprobe_multi_ok()));
	/* usdt semaphores through the uprobe reference counter */
	fprintf(f, "uprobe_ref_ctr: %s\n",
		yn(exists("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset")));
	fprintf(f, "perf_event: %s\n", yn(exists("/proc/sys/kernel/perf_event_paranoid")));
	fprintf(f, "tracefs: %s\n", yn(exists("/sys/kernel/tracing/events") ||
				       exists("/sys/kernel/debug/tracing/events")));
	return 0;
}
