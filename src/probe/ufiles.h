/* ufiles.h - the files the file field of a uprobe, uretprobe or usdt
 * spec names, for expanding specs (uprobe.c) and listing (ulist.c). */
#ifndef SONDE_PROBE_UFILES_H
#define SONDE_PROBE_UFILES_H

#include <stddef.h>

#include "base/arena.h"

/* One file: the path sonde opens, and the one its probes are named by
 * (the path as written; a library's or a program's resolved path when
 * the field has no '/'; the path as the process names it for -p). */
struct ufile {
	const char *path, *shown;
};

struct ufiles {
	struct ufile *v;	/* in the arena */
	int n, cap;
	enum { ONE_FILE, WILD_FILES, PROCESS_FILES } how;
};

/* The files FIELD names, for probe kind KIND: a path, or a library or
 * program name resolved as the dynamic linker would (PID's maps first,
 * and /proc/PID/root for an absolute path); every ELF file a wildcard
 * matches; with PID > 0 and FIELD empty (or "*"), PID's executable and
 * the libraries it has mapped.  0, or -1 with the message in ERR. */
int ufiles_find(struct ufiles *fs, struct arena *a, const char *kind,
		const char *field, int pid, char *err, size_t errlen);

/* The files a process of program PROG maps as it starts: PROG and the
 * libraries it needs; -1 when none is an ELF file. */
int ufiles_program(struct ufiles *fs, struct arena *a, const char *prog);

/* "not an ELF file" and the like for an elfsym/usdt error RC. */
const char *ufiles_error(int rc);

#endif
