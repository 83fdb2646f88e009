/* ir.h - BPF instructions with symbolic jump labels and relocations,
 * as cg emits them; asm.c turns them into a loadable program. */
#ifndef SONDE_IR_H
#define SONDE_IR_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include "bpf/prog.h"

/* The kernel's limit of instructions per program. */
#define MAX_INSNS 1000000

struct ir_insn {
	struct bpf_insn in;
	int target;		/* jump label, or -1 */
	enum reloc_kind reloc;	/* on the first slot of an ld_imm64 */
	int reloc_arg;
	int line;		/* source line, 0 if none */
};

struct ir {
	struct ir_insn *v;
	int n, cap;
	int *label_at;		/* label -> insn index, -1 while unbound */
	int nlabels, labels_cap;
	int line;		/* current source line for new insns */
	int *funcs;		/* labels of the subprograms' entries */
	int nfuncs, funcs_cap;
	int nglobal;		/* the first ones are global functions */
	bool overflow;		/* more than the kernel's limit emitted */
};

void ir_init(struct ir *ir);
void ir_free(struct ir *ir);
int ir_label(struct ir *ir);
void ir_bind(struct ir *ir, int label);
void ir_emit(struct ir *ir, struct bpf_insn in);
/* A jump (BPF_JA or conditional) to LABEL. */
void ir_jump(struct ir *ir, struct bpf_insn in, int label);
/* A BPF-to-BPF call of the subprogram at LABEL. */
void ir_call(struct ir *ir, int label);
/* DST = the subprogram at LABEL, a callback for a helper (ld_imm64
 * with BPF_PSEUDO_FUNC). */
void ir_ld_func(struct ir *ir, int dst, int label);
/* LABEL starts a subprogram (bound where its code begins). */
void ir_func(struct ir *ir, int label);
/* LABEL starts no function after all (ir_func()'s undone). */
void ir_unfunc(struct ir *ir, int label);
/* 64-bit immediate load into DST, optionally relocated. */
void ir_ld64(struct ir *ir, int dst, uint64_t imm, enum reloc_kind reloc,
	     int arg);

/* Instruction builders. */
static inline struct bpf_insn bpf_i(uint8_t code, uint8_t dst, uint8_t src,
				    int16_t off, int32_t imm)
{
	struct bpf_insn in;

	in.code = code;
	in.dst_reg = dst & 0xf;
	in.src_reg = src & 0xf;
	in.off = off;
	in.imm = imm;
	return in;
}

#define ALU64_IMM(op, d, imm)	bpf_i(BPF_ALU64 | (op) | BPF_K, d, 0, 0, imm)
#define ALU64_REG(op, d, s)	bpf_i(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define ALU32_IMM(op, d, imm)	bpf_i(BPF_ALU | (op) | BPF_K, d, 0, 0, imm)
#define ALU32_REG(op, d, s)	bpf_i(BPF_ALU | (op) | BPF_X, d, s, 0, 0)
#define MOV_IMM(d, imm)		ALU64_IMM(BPF_MOV, d, imm)
#define MOV_REG(d, s)		ALU64_REG(BPF_MOV, d, s)
#define LDX(size, d, s, off)	bpf_i(BPF_LDX | BPF_MEM | (size), d, s, off, 0)
#define STX(size, d, off, s)	bpf_i(BPF_STX | BPF_MEM | (size), d, s, off, 0)
#define ST_IMM(size, d, off, imm) bpf_i(BPF_ST | BPF_MEM | (size), d, 0, off, imm)
#define JMP_IMM(op, d, imm)	bpf_i(BPF_JMP | (op) | BPF_K, d, 0, 0, imm)
#define JMP_REG(op, d, s)	bpf_i(BPF_JMP | (op) | BPF_X, d, s, 0, 0)
#define JA()			bpf_i(BPF_JMP | BPF_JA, 0, 0, 0, 0)
#define CALL(fn)		bpf_i(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define EXIT()			bpf_i(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#endif
