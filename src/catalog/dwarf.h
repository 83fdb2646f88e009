/* dwarf.h - the parameters of functions in user programs, by name and
 * C type, from their DWARF debug information (elfutils' libdw), in the
 * file itself or in a detached debug file; and where each one is at
 * the function's entry, for uprobes' args.NAME. */
#ifndef SONDE_DWARF_H
#define SONDE_DWARF_H

#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"
#include "base/types.h"

/* Where a part of a parameter's value is when the function is entered
 * (a uprobe at its first instruction). */
enum dwarf_piece_kind {
	DP_REG,		/* in a register: its offset in struct pt_regs */
	DP_STACK,	/* in the process's memory at sp + off (sp points to
			 * the return address) */
	DP_CONST,	/* a constant (a parameter a clone was made for) */
	DP_NONE,	/* a part the compiler dropped (DWARF: optimized
			 * out; the caller may not have set it): zeros */
};

struct dwarf_piece {
	enum dwarf_piece_kind kind;
	int size;		/* bytes of the value it holds, in order */
	int reg;		/* DP_REG */
	int64_t off;		/* DP_STACK: from sp; DP_CONST: the value */
};

#define DWARF_MAX_PIECES 2	/* a struct of 16 bytes in two registers */

struct dwarf_param {
	const char *name;	/* "" when the parameter has none */
	const char *ctype;	/* its C type as bpftrace -lv prints it */
	struct type *ty;	/* NULL: a type sonde cannot read (a float) */
	const char *why;	/* NULL, or why its value is not readable at
				 * the entry (in an SSE register, ...) */
	struct dwarf_piece piece[DWARF_MAX_PIECES];
	int npieces;
	bool dwarf_loc;		/* the pieces come from its DWARF location,
				 * not from the calling convention */
};

struct dwarf_func {
	const char *name;
	struct dwarf_param *params;
	int nparams;
};

/* The function at virtual address ADDR of the ELF file PATH (found by
 * NAME, its symbol, when no DWARF unit covers ADDR): its parameters.
 * Returns 0 and *OUT, or -ENODATA (PATH has no DWARF, nor a detached
 * debug file with some), -ENOENT (its DWARF does not describe this
 * function), -errno.  Answers and open files are kept in C until
 * compiler_free(). */
int dwarf_func(struct compiler *c, const char *path, const char *name,
	       uint64_t addr, const struct dwarf_func **out);

/* PATH's module as libdwfl reads it (opened once, as dwarf_func's),
 * or NULL with *ERR -ENODATA (no DWARF), -ENOEXEC or -ENOMEM. */
typedef struct Dwfl_Module Dwfl_Module;
Dwfl_Module *dwarf_module(struct compiler *c, const char *path, int *err);

/* dwline.c: the addresses (virtual, of PATH) where the statements of
 * source line LINE (and column COL; 0: any) of FILE begin, FILE
 * matching the end of a compile unit's file name ("readline.c",
 * "lib/readline.c") or the whole of an absolute one; lowest first, in
 * *ADDRS (arena).  Returns how many (0: none), or -errno. */
int dwarf_line_addrs(struct compiler *c, const char *path, const char *file,
		     int line, int col, uint64_t **addrs);

/* Where PATH's detached debug file would be found by its build id
 * ("/usr/lib/debug/.build-id/ab/cdef.debug"), or NULL without one:
 * for the message of a file without DWARF. */
const char *dwarf_debug_file_hint(struct compiler *c, const char *path);

#endif
