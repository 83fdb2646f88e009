/* asm.h - from cg's instruction list to a loadable program, and back
 * to text. */
#ifndef SONDE_ASM_H
#define SONDE_ASM_H

#include <stdio.h>
#include "bpf/ir.h"

/* Resolve labels into offsets and fill PS's insns, lines and relocs.
 * Returns 0 or -1 (jump out of range: program too large). */
int asm_resolve(struct compiler *c, struct ir *ir, struct prog_spec *ps);

/* The most conditional jumps on a path through one function of PS
 * (back edges aside): past 8,192 the verifier gives up. */
int asm_branch_depth(const struct prog_spec *ps);

/* Print the program as text, one instruction per line, with the script
 * line each came from (--dump=bpf). */
void asm_dump(FILE *f, const struct compiler *c, const struct prog_spec *ps);
/* One instruction as text (no newline); returns slots used (1 or 2). */
int disasm_insn(char *buf, size_t cap, const struct bpf_insn *in, int idx,
		const struct bpf_reloc *rel);

#endif
