/* prog.h - an assembled program, ready for run/ to load: instructions,
 * the relocations the loader patches, and the probe it runs for. */
#ifndef SONDE_PROG_H
#define SONDE_PROG_H

#include <linux/bpf.h>
#include "probe/probe.h"

/* What cg emits for a relocation the loader patches into an ld_imm64. */
enum reloc_kind {
	RELOC_NONE,
	RELOC_MAP_FD,		/* arg: map id */
	RELOC_SCRATCH_FD,	/* the per-CPU scratch array */
	RELOC_RINGBUF_FD,
	RELOC_STATS,		/* arg: slot; the address of a loss counter */
	RELOC_START_NS,		/* CLOCK_MONOTONIC ns at start, for elapsed */
	RELOC_NCPUS,
	RELOC_CPID,		/* the pid of -c's command */
	RELOC_PIDNS_DEV,	/* sonde's pid namespace: st_dev */
	RELOC_PIDNS_INO,	/* and st_ino, 0 in the initial one */
	RELOC_STACK_FD,		/* arg: stack map index */
	RELOC_USEEN_FD,		/* the processes ustack/usym have seen */
	RELOC_UNW_FD,		/* arg: the stack walker's map (unwind.h):
				 * 0 files' information, 1 rows, 2 misses,
				 * 3 mappings met */
	RELOC_DWSTACK_FD,	/* arg: stack map index: its walked stacks */
	RELOC_SKB_FD,		/* skboutput()'s perf event array */
	RELOC_SITES_FD,		/* the program's table of names (cg_site.c) */
	RELOC_SYSNR_FD,		/* a raw_syscalls merge: number -> part + 1 */
};

struct bpf_reloc {
	int insn;		/* index of the ld_imm64's first slot */
	enum reloc_kind kind;
	int arg;
};

/* One assembled program, ready to load. */
struct prog_spec {
	struct probe_spec probe;
	struct probe_load load;	/* program type, attach type, BTF id */
	struct bpf_insn *insns;
	int ninsns;
	int *line;		/* per insn: source line, 0 if none */
	struct bpf_reloc *relocs;
	int nrelocs;
	int *funcs;		/* where each subprogram starts (a long
				 * body's pieces: cg.c), in order */
	int nfuncs;
	int nglobal;		/* the first nglobal are global functions
				 * taking the context, the rest static */
	int fd;			/* set by the loader */
	int sites_fd;		/* its probe.sites as a map, by the loader */
	int sysnr_fd;		/* its probe.sys_nrs as a map, by the loader */
	double load_ms;		/* the loader's: its last bpf_prog_load() */
};

#endif
