/* insn.h - the length of a machine instruction, so that a uprobe at
 * FUNC+OFFSET is placed only where an instruction starts (a breakpoint
 * in the middle of one corrupts it). */
#ifndef SONDE_INSN_H
#define SONDE_INSN_H

#include <stddef.h>
#include <stdint.h>

/* The length in bytes of the instruction at P (N bytes readable), for
 * this machine's architecture in 64-bit mode; -1 when it cannot be
 * decoded (an opcode unknown here, invalid, or cut off by N). */
int insn_length(const uint8_t *p, size_t n);

/* Whether OFF bytes into the code at P (the function's first N bytes)
 * is where an instruction starts: 1 yes, 0 no, -1 cannot tell. */
int insn_boundary(const uint8_t *p, size_t n, uint64_t off);

#endif
