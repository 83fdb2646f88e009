/* usdt.h - USDT probes: the stapsdt notes of an ELF file (sys/sdt.h's
 * format, also written by include/sonde/sdt.h) and their operands. */
#ifndef SONDE_USDT_H
#define SONDE_USDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USDT_MAX_ARGS 32

enum usdt_loc {
	USDT_REG,	/* %reg: a pt_regs field */
	USDT_CONST,	/* $N: a constant; with base, base + N */
	USDT_MEM,	/* off(%base,%index,scale): memory at the address */
	USDT_BAD,	/* a form sonde cannot read: err says why */
};

/* One argument operand, such as "-4@%edi", "8@$5", "-8@16(%rbp)",
 * "4@-12(%rbp,%rax,4)" or "-4@counter(%rip)".  Register numbers are
 * struct pt_regs offsets.  A symbol (sym(%rip), $sym) has been turned
 * into OFF relative to the probe's own address: base is then
 * PT_REGS_IP, since at the probe ip holds the probe's address. */
struct usdt_arg {
	enum usdt_loc loc;
	int size;		/* bytes: 1, 2, 4 or 8 */
	bool is_signed;
	int base;		/* REG, MEM, CONST: pt_regs offset, -1: none */
	int shift;		/* REG: 8 for %ah, %bh, %ch, %dh */
	int index;		/* MEM: pt_regs offset, -1: none */
	int scale;		/* MEM: 1, 2, 4 or 8 */
	int64_t off;		/* MEM: displacement; CONST: the value */
	int text_off, text_len;	/* the operand in the note's args text */
	const char *err;	/* BAD: why (a static string) */
};

struct usdt_note {
	const char *provider, *name, *args;	/* valid during the callback */
	uint64_t pc;		/* virtual address of the probe, adjusted
				 * for prelink by .stapsdt.base */
	uint64_t pc_offset;	/* its file offset, for the uprobe */
	uint64_t sem;		/* semaphore address, 0: none */
	uint64_t sem_offset;	/* its file offset (the uprobe's
				 * ref_ctr_offset), 0: none */
	int nargs;
	bool too_many;		/* more than USDT_MAX_ARGS operands */
	struct usdt_arg arg[USDT_MAX_ARGS];
};

/* Does probe name NAME match GLOB (fnmatch), or with each "__" in it
 * written "-", as DTrace names the probes of request__start? */
bool usdt_name_matches(const char *glob, const char *name);

/* Call FN for each stapsdt note of PATH whose provider and name match
 * the fnmatch patterns PROVIDER and NAME (NULL: any), in file order.
 * A note that is corrupt (sizes past its section, strings without
 * their NUL, addresses outside the file) is skipped and counted in
 * *NBAD.  Returns the number of notes given to FN, or -errno: -ENOENT,
 * -EACCES, -ENOEXEC (not ELF, or not a 64-bit file). */
int usdt_notes(const char *path, const char *provider, const char *name,
	       void (*fn)(void *arg, const struct usdt_note *n), void *arg,
	       int *nbad);

/* The raw notes of one note section's bytes, without any address
 * adjustment: for usdt_notes() and its tests.  ADDR_SIZE is 4 or 8,
 * ALIGN 4 or 8 (the section's).  FN gets the provider, name and args
 * strings and the three addresses.  Returns the number of stapsdt
 * notes given to FN; *NBAD counts malformed ones. */
int usdt_parse_section(const void *buf, size_t len, int addr_size,
		       bool big_endian, size_t align,
		       void (*fn)(void *arg, const char *provider,
				  const char *name, const char *args,
				  const uint64_t addr[3]),
		       void *arg, int *nbad);

/* Decode the argument text of a note into ARGS (at most USDT_MAX_ARGS;
 * *TOO_MANY is set if there were more).  An operand naming a symbol
 * (sym(%rip), sym+8(%rip), $sym) is resolved by SYM (0 and the
 * symbol's address, or -1) and made relative to PC, the probe's
 * address; without SYM it is USDT_BAD.  Returns the number of
 * operands; those sonde cannot read are USDT_BAD. */
int usdt_parse_args(const char *text, uint64_t pc,
		    int (*sym)(void *ctx, const char *name, uint64_t *addr),
		    void *ctx, struct usdt_arg *args, bool *too_many);

/* The operand as C would type it: "int32", "uint64". */
const char *usdt_arg_type(const struct usdt_arg *a);

#endif
