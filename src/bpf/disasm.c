/* disasm.c - one BPF instruction as text, in the notation of the
 * kernel's verifier log ("r1 = r10", "if r0 == 0x0 goto +3"). */
#include "bpf/asm.h"

#include <stdio.h>

static const char *const helper_names[] = {
	[1] = "map_lookup_elem", [2] = "map_update_elem",
	[3] = "map_delete_elem", [4] = "probe_read", [5] = "ktime_get_ns",
	[6] = "trace_printk", [7] = "get_prandom_u32",
	[8] = "get_smp_processor_id", [14] = "get_current_pid_tgid",
	[15] = "get_current_uid_gid", [16] = "get_current_comm",
	[27] = "get_stackid",
	[25] = "perf_event_output", [35] = "get_current_task",
	[42] = "get_numa_node_id", [45] = "probe_read_str",
	[58] = "override_return", [109] = "send_signal",
	[117] = "send_signal_thread", [120] = "get_ns_current_pid_tgid",
	[67] = "get_stack", [80] = "get_current_cgroup_id",
	[111] = "skb_output", [112] = "probe_read_user", [113] = "probe_read_kernel",
	[114] = "probe_read_user_str", [115] = "probe_read_kernel_str",
	[118] = "jiffies64", [125] = "ktime_get_boot_ns",
	[130] = "ringbuf_output", [131] = "ringbuf_reserve",
	[132] = "ringbuf_submit", [133] = "ringbuf_discard",
	[158] = "get_current_task_btf", [164] = "for_each_map_elem",
	[175] = "task_pt_regs", [181] = "loop",
	[195] = "map_lookup_percpu_elem",
};

static const char *alu_op(int op)
{
	switch (op) {
	case BPF_ADD: return "+=";
	case BPF_SUB: return "-=";
	case BPF_MUL: return "*=";
	case BPF_DIV: return "/=";
	case BPF_OR: return "|=";
	case BPF_AND: return "&=";
	case BPF_LSH: return "<<=";
	case BPF_RSH: return ">>=";
	case BPF_MOD: return "%=";
	case BPF_XOR: return "^=";
	case BPF_MOV: return "=";
	case BPF_ARSH: return "s>>=";
	default: return "?=";
	}
}

static const char *jmp_op(int op)
{
	switch (op) {
	case BPF_JEQ: return "==";
	case BPF_JGT: return ">";
	case BPF_JGE: return ">=";
	case BPF_JSET: return "&";
	case BPF_JNE: return "!=";
	case BPF_JSGT: return "s>";
	case BPF_JSGE: return "s>=";
	case BPF_JLT: return "<";
	case BPF_JLE: return "<=";
	case BPF_JSLT: return "s<";
	case BPF_JSLE: return "s<=";
	default: return "?";
	}
}

static const char *size_name(int sz)
{
	switch (sz) {
	case BPF_B: return "u8";
	case BPF_H: return "u16";
	case BPF_W: return "u32";
	default: return "u64";
	}
}

static const char *reloc_name(enum reloc_kind k)
{
	switch (k) {
	case RELOC_MAP_FD: return "map";
	case RELOC_SCRATCH_FD: return "scratch";
	case RELOC_RINGBUF_FD: return "ringbuf";
	case RELOC_START_NS: return "start_ns";
	case RELOC_NCPUS: return "ncpus";
	case RELOC_CPID: return "cpid";
	case RELOC_PIDNS_DEV: return "pidns_dev";
	case RELOC_PIDNS_INO: return "pidns_ino";
	case RELOC_USEEN_FD: return "useen";
	case RELOC_UNW_FD: return "unw";
	case RELOC_DWSTACK_FD: return "dwstack";
	case RELOC_SKB_FD: return "skbout";
	default: return "";
	}
}

int disasm_insn(char *buf, size_t cap, const struct bpf_insn *in, int idx,
		const struct bpf_reloc *rel)
{
	int cls = BPF_CLASS(in->code), op = BPF_OP(in->code);
	int d = in->dst_reg, s = in->src_reg;

	switch (cls) {
	case BPF_ALU64: case BPF_ALU: {
		char r = cls == BPF_ALU64 ? 'r' : 'w';

		if (op == BPF_NEG)
			snprintf(buf, cap, "%c%d = -%c%d", r, d, r, d);
		else if (op == BPF_END)
			snprintf(buf, cap, "r%d = %s%d r%d",
				 d, BPF_SRC(in->code) ? "be" : "le", in->imm, d);
		else if (BPF_SRC(in->code) == BPF_X)
			snprintf(buf, cap, "%c%d %s %c%d", r, d, alu_op(op), r, s);
		else
			snprintf(buf, cap, "%c%d %s %d", r, d, alu_op(op), in->imm);
		return 1;
	}
	case BPF_LDX:
		snprintf(buf, cap, "r%d = *(%s *)(r%d %+d)", d,
			 size_name(BPF_SIZE(in->code)), s, in->off);
		return 1;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC && in->imm == BPF_CMPXCHG)
			snprintf(buf, cap, "r0 = cmpxchg(*(%s *)(r%d %+d), r0, r%d)",
				 size_name(BPF_SIZE(in->code)), d, in->off, s);
		else if (BPF_MODE(in->code) == BPF_ATOMIC)
			snprintf(buf, cap, "lock *(%s *)(r%d %+d) += r%d",
				 size_name(BPF_SIZE(in->code)), d, in->off, s);
		else
			snprintf(buf, cap, "*(%s *)(r%d %+d) = r%d",
				 size_name(BPF_SIZE(in->code)), d, in->off, s);
		return 1;
	case BPF_ST:
		snprintf(buf, cap, "*(%s *)(r%d %+d) = %d",
			 size_name(BPF_SIZE(in->code)), d, in->off, in->imm);
		return 1;
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			uint64_t v = (uint32_t)in->imm |
				     ((uint64_t)(uint32_t)in[1].imm << 32);

			if (in->src_reg == BPF_PSEUDO_FUNC)
				snprintf(buf, cap, "r%d = func pc%+d <%d> ll", d,
					 in->imm, idx + 1 + in->imm);
			else if (rel && rel->kind == RELOC_MAP_FD)
				snprintf(buf, cap, "r%d = map[%d] ll", d, rel->arg);
			else if (rel && rel->kind == RELOC_STATS)
				snprintf(buf, cap, "r%d = &stats[%d] ll", d,
					 rel->arg);
			else if (rel && rel->kind == RELOC_STACK_FD)
				snprintf(buf, cap, "r%d = kstack[%d] ll", d,
					 rel->arg);
			else if (rel)
				snprintf(buf, cap, "r%d = %s ll", d,
					 reloc_name(rel->kind));
			else if (in->src_reg == BPF_PSEUDO_FUNC)
				snprintf(buf, cap, "r%d = func pc%+d <%d> ll", d,
					 in->imm, idx + 1 + in->imm);
			else if (in->src_reg == BPF_PSEUDO_BTF_ID)
				snprintf(buf, cap, "r%d = btf_id[%d] ll", d, in->imm);
			else
				snprintf(buf, cap, "r%d = 0x%llx ll", d,
					 (unsigned long long)v);
			return 2;
		}
		snprintf(buf, cap, "(ld 0x%02x)", in->code);
		return 1;
	case BPF_JMP: case BPF_JMP32:
		if (op == BPF_CALL && in->src_reg == BPF_PSEUDO_CALL) {
			snprintf(buf, cap, "call pc%+d <%d>", in->imm,
				 idx + 1 + in->imm);
		} else if (op == BPF_CALL) {
			const char *name = in->imm > 0 &&
				(size_t)in->imm < ARRAY_SIZE(helper_names) ?
				helper_names[in->imm] : NULL;

			snprintf(buf, cap, "call %s#%d", name ? name : "helper",
				 in->imm);
		} else if (op == BPF_EXIT) {
			snprintf(buf, cap, "exit");
		} else if (op == BPF_JA) {
			snprintf(buf, cap, "goto %+d <%d>", in->off,
				 idx + 1 + in->off);
		} else if (BPF_SRC(in->code) == BPF_X) {
			snprintf(buf, cap, "if r%d %s r%d goto %+d <%d>", d,
				 jmp_op(op), s, in->off, idx + 1 + in->off);
		} else {
			snprintf(buf, cap, "if r%d %s %d goto %+d <%d>", d,
				 jmp_op(op), in->imm, in->off,
				 idx + 1 + in->off);
		}
		return 1;
	default:
		snprintf(buf, cap, "(code 0x%02x)", in->code);
		return 1;
	}
}
