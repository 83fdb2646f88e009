/* arch.h - the x86_64 register file as struct pt_regs lays it out, for
 * argN, retval, reg("name") and USDT argument operands. */
#ifndef SONDE_ARCH_H
#define SONDE_ARCH_H

/* Offset in struct pt_regs of a register named as in reg() ("di",
 * "rdi") or in USDT operands ("%rdi", "%edi", "%di", "%dil", "%r8d"),
 * or -1. */
int pt_regs_offset(const char *name);
/* Offset of the Nth integer argument (0..5) of the SysV ABI, or -1. */
int pt_regs_arg(int n);
#define PT_REGS_RET 80		/* ax */
#define PT_REGS_IP 128
#define PT_REGS_SP 152

#endif
