/* usyms.h - user-space symbols for ustack and usym: which file each
 * address of a process came from, kept past the process's exit, and
 * the functions of those files. */
#ifndef SONDE_USYMS_H
#define SONDE_USYMS_H

#include <stdbool.h>
#include <stdint.h>

struct usyms;

struct usym_frame {
	const char *func;	/* the function, demangled; NULL: unknown */
	uint64_t off;		/* the address minus the function's start */
	const char *path;	/* the mapped file; NULL: no mapping known */
};

/* SEEN_FD: BPF's hash of the processes it noted (cg_note_pid), to drop
 * the tables of processes that exit unnoted; -1 keeps them all. */
struct usyms *us_new(bool verbose, int seen_fd);
void us_free(struct usyms *u);
/* BPFTRACE_NO_CPP_DEMANGLE: print C++ names as the symbol tables hold
 * them (_ZN2ns1K1fEi), not demangled. */
void us_no_demangle(struct usyms *u);
/* BPFTRACE_NO_USER_SYMBOLS: user addresses print as numbers. */
void us_no_symbols(struct usyms *u);

/* Follow every process's executable mappings, forks and execs from now
 * on (perf side-band records on each of NCPUS CPUs).  Returns 0 or
 * -errno; without it sonde falls back on /proc/PID/maps alone. */
int us_follow(struct usyms *u, int ncpus);
/* Wait up to TIMEOUT_MS for side-band records or for OTHER_FD (an
 * epoll fd: the BPF ring buffer's) to be readable, then apply the
 * records.  Returns 0 or -errno (-EINTR on a signal). */
int us_wait(struct usyms *u, int other_fd, int timeout_ms);
/* Apply the side-band records read so far. */
void us_drain(struct usyms *u);

/* BPF saw process PID first: read its mappings now unless the
 * side-band already knows them all. */
void us_note(struct usyms *u, int pid);
/* Read /proc/PID/maps now (-p at start).  Returns 0 or -errno. */
int us_snapshot(struct usyms *u, int pid);
/* The same for every process (at start, after us_follow).  Returns 0
 * or -errno. */
int us_snapshot_all(struct usyms *u);

/* Symbolize ADDR of process PID.  False when no mapping of the process
 * holds ADDR; F->func is NULL when the file has no function there. */
bool us_resolve(struct usyms *u, int pid, uint64_t addr,
		struct usym_frame *f);

/* build_id stack mode: the build id (hex) of the file mapped at ADDR of
 * PID and the file offset of ADDR in *OFF; NULL when no file with a
 * build id is mapped there. */
const char *us_build_id(struct usyms *u, int pid, uint64_t addr,
			uint64_t *off);

/* With config show_debug_info: the source frames of ADDR of PID (the
 * functions inlined there, then the function; catalog/srcinfo.h), at
 * most MAX; 0 without debug information.  After us_resolve() of the
 * same address. */
struct src_frame;
int us_srcinfo(struct usyms *u, int pid, uint64_t addr, struct src_frame *out,
	       int max);

#endif
