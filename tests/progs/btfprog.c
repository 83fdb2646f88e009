/* btfprog.c - a BPF program with BTF, for fentry:bpf and fexit:bpf
 * (tests/guest/fentry_bpf.sh): loads a raw tracepoint program whose
 * BTF names its function target_fn(void *ctx) (it returns 7), prints
 * its id, then
 * (after "wait": once SIGUSR1 comes) runs it N times with
 * BPF_PROG_TEST_RUN, a trampoline's events, and exits.  Raw bpf()
 * calls and a hand-made BTF, so that it needs no library.
 *
 * usage: btfprog [wait] N
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wait.h"

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* int, void *, int (void *ctx), target_fn */
static const char strs[] = "\0int\0ctx\0target_fn";
static const uint32_t types[] = {
	/* 1: int */
	1, BTF_KIND_INT << 24, 4, (BTF_INT_SIGNED << 24) | 32,
	/* 2: void * */
	0, BTF_KIND_PTR << 24, 0,
	/* 3: int (void *ctx) */
	0, (BTF_KIND_FUNC_PROTO << 24) | 1, 1, 5, 2,
	/* 4: target_fn, static */
	9, BTF_KIND_FUNC << 24, 3,
};

static int load_btf(void)
{
	static char blob[sizeof(struct btf_header) + sizeof(types) + sizeof(strs)];
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_off = 0,
		.type_len = sizeof(types), .str_off = sizeof(types),
		.str_len = sizeof(strs),
	};
	union bpf_attr a;

	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), types, sizeof(types));
	memcpy(blob + sizeof(h) + sizeof(types), strs, sizeof(strs));
	memset(&a, 0, sizeof(a));
	a.btf = (uint64_t)(uintptr_t)blob;
	a.btf_size = sizeof(blob);
	return (int)sys_bpf(BPF_BTF_LOAD, &a);
}

int main(int argc, char **argv)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 7 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_func_info fi = { .insn_off = 0, .type_id = 4 };
	struct bpf_prog_info info;
	uint64_t ctx[1] = { 0 };
	union bpf_attr a;
	int i = 1, btf, fd;
	long n;

	btf = load_btf();
	if (btf < 0) {
		perror("BTF_LOAD");
		return 1;
	}
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insns = (uint64_t)(uintptr_t)insns;
	a.insn_cnt = 2;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.prog_btf_fd = (uint32_t)btf;
	a.func_info = (uint64_t)(uintptr_t)&fi;
	a.func_info_cnt = 1;
	a.func_info_rec_size = sizeof(fi);
	strcpy(a.prog_name, "target_fn");
	fd = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0) {
		perror("PROG_LOAD");
		return 1;
	}
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a)) {
		perror("GET_INFO");
		return 1;
	}
	printf("%u\n", info.id);
	fflush(stdout);
	wait_maybe(argc, argv, &i);
	n = i < argc ? num_arg(argv[i]) : 3;
	for (long k = 0; k < n; k++) {
		memset(&a, 0, sizeof(a));
		a.test.prog_fd = (uint32_t)fd;
		a.test.ctx_in = (uint64_t)(uintptr_t)ctx;
		a.test.ctx_size_in = sizeof(ctx);
		if (sys_bpf(BPF_PROG_TEST_RUN, &a)) {
			perror("TEST_RUN");
			return 1;
		}
	}
	return 0;
}
