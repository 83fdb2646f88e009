/* arch.h - the x86_64 register file as struct pt_regs lays it out, for
 * argN, retval, reg("name") and USDT argument operands. */
#ifndef SONDE_ARCH_H
#define SONDE_ARCH_H

/* Offset in struct pt_regs of a register named as in reg() ("di",
 * "rdi") or in USDT operands ("%rdi", "%edi", "%di", "%dil", "%r8d"),
 * or -1. */
int pt_regs_offset(const char *name);
/* Offset of DWARF's register number REGNO (x86-64 psABI: 0 rax, 1 rdx,
 * 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15), or -1 for
 * the others (the SSE registers are not in pt_regs). */
int pt_regs_dwarf(int regno);
/* Offset of the Nth integer argument (0..5) of the SysV ABI, or -1. */
int pt_regs_arg(int n);
#define PT_REGS_RET 80		/* ax */
#define PT_REGS_IP 128
#define PT_REGS_SP 152
#define PT_REGS_BP 32

#endif
