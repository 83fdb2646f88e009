/* elfsym.h - symbols of ELF files (libelf): functions by name or
 * pattern, their file offsets for uprobes, and the library search the
 * dynamic linker does for short names like "libc". */
#ifndef SONDE_ELFSYM_H
#define SONDE_ELFSYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct Elf;

struct elf_func {
	char *name;
	uint64_t addr;		/* virtual address in the file */
	uint64_t size;
	uint64_t offset;	/* file offset of addr (for uprobes) */
};

/* Call FN for each function symbol of PATH whose name matches GLOB
 * (fnmatch), from .symtab and .dynsym, each name once.  Returns the
 * number of matches or -errno; -ENOEXEC when PATH is not ELF. */
int elf_functions(const char *path, const char *glob,
		  void (*fn)(void *arg, const struct elf_func *f), void *arg);

/* File offset of virtual address ADDR in PATH (via its PT_LOAD
 * segments).  Returns 0 or -errno (-ENOENT: no segment holds it). */
int elf_addr_to_offset(const char *path, uint64_t addr, uint64_t *off);

/* Resolve a probe's path: an absolute or relative path that exists, a
 * library short name ("libc", "c", "libc.so.6") through
 * /proc/PID/maps (PID > 0), /etc/ld.so.cache and the usual directories,
 * or a program name through $PATH.  With PID > 0 an absolute path (or
 * one from its maps) is looked up under /proc/PID/root first, and kept
 * there when that is another file than the host's.  Returns a malloc'd
 * path or NULL. */
char *elf_resolve_path(const char *name, int pid);

/* The ELF files process PID runs: its executable, then every file it
 * has mapped executable (its libraries), each once, as the process
 * names them (elf_resolve_path(NAME, PID) gives a path sonde can open:
 * through /proc/PID/root in another mount namespace).  NUL-separated
 * in a malloc'd buffer ending in an empty name; NULL when PID is gone. */
char *elf_process_files(int pid);

/* Wait until process PID is a quarter of a second old: one started
 * just before sonde (`prog & sonde -p $!`) may not have exec'd its
 * program yet, and its executable would still be the shell's; and
 * while it is under two seconds old and still runs its parent's
 * program (`(sleep 1; exec prog) &`), until it execs. */
void elf_process_settle(int pid);

/* PATH opened for libelf: the handle, and the file descriptor in *FD;
 * NULL with errno set (ENOEXEC: not ELF) on failure.  elf_close_file()
 * ends both. */
struct Elf *elf_open_file(const char *path, int *fd);
void elf_close_file(struct Elf *e, int fd);

/* File offset of virtual address ADDR through E's PT_LOAD segments:
 * 0, or -ENOENT when no segment holds it. */
int elf_vaddr_to_offset(struct Elf *e, uint64_t addr, uint64_t *off);

/* Any symbol NAME (function or object) of PATH: its virtual address,
 * and whether the file is position-independent (ET_DYN: the address is
 * relative to where it is loaded).  0, -ENOENT, or -errno. */
int elf_symbol(const char *path, const char *name, uint64_t *vaddr,
	       bool *pie, uint64_t *size);

/* PATH's GNU build id as lower-case hex into HEX (CAP bytes): 0,
 * -ENODATA without one, or -errno. */
int elf_build_id(const char *path, char *hex, size_t cap);

/* Is PATH an ELF file?  0, -ENOENT, -EACCES, -ENOEXEC. */
int elf_check(const char *path);

/* The libraries a shared library PATH needs (its DT_NEEDED names, in
 * order), NUL-separated in a malloc'd buffer ending in an empty name;
 * NULL when PATH is not a shared library (a program: it has an
 * interpreter) or needs none. */
char *elf_needed(const char *path);
/* The files a process running program PROG maps before it runs: PROG
 * and, breadth first, the libraries it and they need (DT_NEEDED, found
 * as the dynamic linker finds them), NUL-separated as
 * elf_process_files() gives them. */
char *elf_program_files(const char *prog);

/* The functions of one ELF file sorted by address, for symbolizing
 * addresses of user stacks.  Of the symbols at one address only one is
 * kept (sized before unsized, global before weak before local, fewer
 * leading underscores, then the first name in byte order: __getpid
 * over getpid, as bpftrace 0.17 prints).  Without a .symtab, the
 * detached debug file is read too: /usr/lib/debug/.build-id/NN/REST.debug
 * by build id, else .gnu_debuglink (CRC-checked) beside the file, in
 * its .debug directory and under /usr/lib/debug. */
struct elf_sym {
	uint64_t addr;		/* virtual address in the file */
	uint64_t size;
	const char *name;
};

struct elf_seg {		/* a PT_LOAD segment */
	uint64_t off, filesz, vaddr;
};

struct elf_symtab {
	struct elf_sym *v;
	size_t n;
	struct elf_seg *seg;
	int nseg;
	char *names;		/* one block holding every name */
	bool debug_file;	/* symbols came from a detached debug file */
};

/* Load PATH's functions.  Returns 0 or -errno (-ENOEXEC: not ELF). */
int elf_symtab_load(const char *path, struct elf_symtab *st);
/* The same from an ELF image in memory (the vDSO). */
int elf_symtab_load_mem(const void *image, size_t size,
			struct elf_symtab *st);
void elf_symtab_free(struct elf_symtab *st);
/* The function containing virtual address ADDR (its size covers it;
 * nested functions are found as bcc finds them), or NULL. */
const struct elf_sym *elf_symtab_find(const struct elf_symtab *st,
				      uint64_t addr);
/* The virtual address of file offset OFF (through PT_LOAD).  Returns
 * 0 or -ENOENT. */
int elf_symtab_vaddr(const struct elf_symtab *st, uint64_t off,
		     uint64_t *vaddr);

#endif
