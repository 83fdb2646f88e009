/* srcinfo.h - where in the source an address of an ELF file is: its
 * file and line, and the functions inlined there (DWARF, libdwfl), for
 * stacks printed with config show_debug_info. */
#ifndef SONDE_SRCINFO_H
#define SONDE_SRCINFO_H

#include <stdint.h>

struct srcinfo;

/* One frame at an address: the functions inlined there, innermost
 * first (inlined set, name theirs), then the function itself (name
 * NULL: the symbol table's).  file and line: where that frame is (the
 * address's line for the innermost, the call site of the inlined one
 * below it for the others); file NULL when unknown.  Strings stay
 * valid until srcinfo_close(). */
struct src_frame {
	const char *name;
	const char *file;
	int line;
	int inlined;
};

/* PATH's DWARF (in the file, or its separate debug file), or NULL. */
struct srcinfo *srcinfo_open(const char *path);
void srcinfo_close(struct srcinfo *s);
/* The frames at virtual address VADDR of the file, at most MAX: their
 * number, 0 without line information there. */
int srcinfo_at(struct srcinfo *s, uint64_t vaddr, struct src_frame *out,
	       int max);

#endif
