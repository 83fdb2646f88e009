/* cfi.h - a file's call frame information (.eh_frame, .debug_frame)
 * compiled into rows a BPF stack walker can follow (bpf/cg_unwind.c,
 * run/unwind.c; docs/internals.md, "Unwinding without frame
 * pointers"). */
#ifndef SONDE_CFI_H
#define SONDE_CFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How a row finds the canonical frame address (the caller's stack
 * pointer). */
enum cfi_cfa {
	CFI_CFA_FP = 0,		/* no rule a walker follows here (a gap
				 * between functions, an expression):
				 * unwind by the frame pointer */
	CFI_CFA_SP,		/* SP + cfa_off */
	CFI_CFA_BP,		/* the frame pointer + cfa_off */
	CFI_CFA_PLT,		/* x86-64's PLT: SP + cfa_off, + 8 when
				 * (ip & 15) >= aux */
	CFI_CFA_END,		/* the outermost frame: no caller */
};

/* Where the caller's frame pointer is. */
enum cfi_fp {
	CFI_FP_SAME = 0,	/* unchanged (or undefined) */
	CFI_FP_AT,		/* saved at CFA + fp_off */
};

/* One row: from pc (a virtual address of the file) to the next row's
 * pc.  16 bytes, the value of the rows' BPF array map. */
struct cfi_row {
	uint32_t pc;
	uint8_t cfa;		/* enum cfi_cfa */
	uint8_t fp;		/* enum cfi_fp */
	uint8_t aux;		/* CFI_CFA_PLT: the threshold */
	uint8_t pad;
	int32_t cfa_off;
	int16_t fp_off;
	int16_t ra_off;		/* the return address at CFA + ra_off */
};

struct cfi_seg {			/* a PT_LOAD segment */
	uint64_t off, vaddr, filesz;
	bool exec;		/* PF_X */
};

struct cfi_table {
	struct cfi_row *v;
	size_t n;
	const char *section;	/* ".eh_frame", ".debug_frame" */
	struct cfi_seg seg[8];
	int nseg;
};

/* The walker's maps (run/unwind.c fills them, bpf/cg_unwind.c reads
 * them).  A file is known by what the kernel knows it by: its inode's
 * number and its superblock's device (the kernel's encoding, major <<
 * 20 | minor), which the walker reads from the mapping holding an
 * address (bpf_find_vma()). */
#define UNW_FILES 4096		/* files with rows, at most */
#define UNW_SEGS 4		/* executable segments kept per file */

struct unw_key {
	uint64_t dev, ino;
};

struct unw_file {
	uint32_t index;		/* its rows: this entry of the array of maps */
	uint32_t nrows;
	uint32_t nseg, pad;
	struct {		/* file offsets [lo, hi) of an executable
				 * segment, whose virtual address is the
				 * offset - delta */
		uint64_t lo, hi, delta;
	} seg[UNW_SEGS];
};

/* The mappings the walker has met, so that it needs bpf_find_vma()
 * (once per event at most in NMI context: a profile's sample) only for
 * new ones: keyed by the address space (the task's mm) and the page of
 * the address (mappings are page-aligned: a page is in one mapping, so
 * two libraries side by side never take each other's entry), the
 * mapping's range, the base that makes its addresses the file's virtual
 * addresses, its rows and their number (0: no file, frame pointers
 * there). */
#define UNW_MAPS 16384
#define UNW_REGION_SHIFT 12

struct unw_map_key {
	uint64_t mm, region;
};

struct unw_mapping {
	uint64_t start, end, base;
	uint64_t file, nrows;
};

/* What the walker reports of a file it met without rows (once per
 * file): the record's id is EVID_UNW_FILE. */
struct unw_miss {
	uint64_t id;
	struct unw_key key;
	uint64_t pid, start, end;	/* the mapping that held the address */
};

/* Compile PATH's CFI: 0, or -errno (-ENOEXEC: not ELF; -ENODATA: no CFI
 * section, or none a walker can follow). */
int cfi_load(const char *path, struct cfi_table *t);
void cfi_free(struct cfi_table *t);
/* The row covering virtual address PC, or NULL (before the first). */
const struct cfi_row *cfi_find(const struct cfi_table *t, uint64_t pc);
/* One line per row, for sonde --dump-cfi. */
void cfi_print(FILE *f, const struct cfi_table *t);

#endif
