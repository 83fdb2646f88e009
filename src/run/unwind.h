/* unwind.h - the tables the BPF stack walker (bpf/cg_unwind.c) reads:
 * each file's CFI rows, known by device and inode (docs/internals.md,
 * "Unwinding without frame pointers"). */
#ifndef SONDE_UNWIND_H
#define SONDE_UNWIND_H

#include <stdbool.h>
#include <stdint.h>

#include "catalog/cfi.h"

struct unwinder;

/* Create the maps: the files' information by key, their rows in an
 * array of maps, the keys already reported missing, the mappings the
 * walker has met; their fds in FDS
 * (stay the unwinder's).  NULL with errno set when the kernel refuses
 * them. */
struct unwinder *unw_new(bool verbose, int fds[4]);
void unw_free(struct unwinder *w);
/* Load the rows of the files process PID maps (-p, --dwarf-pid), as it
 * names them (under /proc/PID/root), now. */
void unw_preload_pid(struct unwinder *w, int pid);
/* Load the rows of program PROG and the libraries it needs (-c, before
 * its command runs). */
void unw_preload(struct unwinder *w, const char *prog);
/* The walker met a file without rows: load them (REC: struct unw_miss,
 * SIZE bytes), through the process's own mapping of it. */
void unw_missed(struct unwinder *w, const void *rec, uint32_t size);

#endif
