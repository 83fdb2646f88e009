/* compiler.h - the state of one compile, which every phase reads and
 * fills, and the plain specs of maps and events it hands to out/ and
 * run/ (which never see the AST).  It sits in base/ so that each layer
 * can take it; the layers' own specs are theirs: probes in
 * probe/probe.h, assembled programs in bpf/prog.h.  compile.c runs the
 * phases. */
#ifndef SONDE_COMPILER_H
#define SONDE_COMPILER_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/diag.h"
#include "base/types.h"
#include "base/util.h"

enum agg_kind {
	AGG_NONE,	/* a plain value: @x = expr */
	AGG_COUNT, AGG_SUM, AGG_MIN, AGG_MAX, AGG_AVG, AGG_STATS,
	AGG_HIST, AGG_LHIST,
	AGG_TSERIES,	/* tseries(): a ring of intervals per key */
	/* D's own (sonde dtrace): stddev() keeps {count, sum, the sum of
	 * squares as 128 bits (low word first)}; quantize() and
	 * llquantize() are histograms in DTrace's bucket layouts
	 * (out/dtfmt.h's dtf_quant_index, dtf_llquant_index) */
	AGG_STDDEV, AGG_QUANT, AGG_LLQUANT,
};

/* Does an aggregation keep a map entry per bucket (the bucket index the
 * key's last word)? */
static inline bool agg_bucketed(enum agg_kind a)
{
	return a == AGG_HIST || a == AGG_LHIST || a == AGG_QUANT ||
	       a == AGG_LLQUANT;
}

/* DTrace's quantize(): 63 negative buckets, zero, 63 positive ones. */
#define DQUANT_NBUCKETS 127

/* How tseries() merges the values of one interval. */
enum ts_mode { TS_LAST, TS_SUM, TS_AVG, TS_MIN, TS_MAX };
/* A tseries bucket, TS_BUCKET bytes: {u64 interval number (0: empty),
 * s64 value, u64 count, u64 time of the last update}. */
#define TS_BUCKET 32
#define TS_MAX_INTERVALS 500	/* 16 KiB a value, zeroed in scratch */

/* One @map of the script, as sema found it and the runtime prints it. */
struct mapinfo {
	const char *name;	/* "@x", "@" */
	int id;			/* index in compiler.maps */
	struct loc first;	/* where it first appears */
	struct type *key;	/* NULL: no key; else the key type (a tuple
				 * for several keys) */
	int nkeys;
	enum agg_kind agg;
	struct type *val;	/* AGG_NONE: the value type; aggregations:
				 * the type of the values fed in */
	int64_t lh_min, lh_max, lh_step;	/* lhist */
	int llq_factor, llq_low, llq_high, llq_steps;	/* D's llquantize */
	int hist_bits;		/* hist(x, k): 2^k buckets per power of 2 */
	int64_t ts_interval;	/* tseries: nanoseconds an interval lasts */
	int ts_n;		/* tseries: intervals kept */
	int ts_mode;		/* tseries: enum ts_mode */
	bool written;		/* some probe stores into it */
	int dsize;		/* the widest integer stored (D's trace()) */
	bool read;		/* some probe reads it */
	struct loc first_write;	/* D: its first assignment in the text */
	bool d_freed;		/* D: an element is assigned 0 (freed) */
	/* BPF layout, set by sema */
	enum bpf_map_type bpf_type;
	int key_size;		/* bytes, including a hist bucket index */
	int value_size;
	int max_entries;
	int fd;			/* set by the loader */
	/* let @m = KIND(N); at the top level: the BPF map type
	 * (BPF_MAP_TYPE_UNSPEC: not declared) and N */
	enum bpf_map_type decl_type;
	int decl_entries;
	struct loc decl_loc;
};

/* The buckets of llquantize() map M: on each side of zero, steps -
 * steps/factor per magnitude from low to high, then zero, underflow
 * and overflow (dtf_llquant_nbuckets()). */
static inline int llq_nbuckets(const struct mapinfo *m)
{
	return 2 * (m->llq_high - m->llq_low + 1) *
	       (m->llq_steps - m->llq_steps / m->llq_factor) + 3;
}

/* The buckets of hist or lhist map M, without the --metrics sum slot,
 * which is the index after them. */
static inline int hist_sum_slot(const struct mapinfo *m)
{
	return m->agg == AGG_HIST ? hist_nbuckets(m->hist_bits) :
	       (int)((m->lh_max - m->lh_min) / m->lh_step + 2);
}

/* Does map M keep a value per CPU, merged when read? */
static inline bool map_percpu(const struct mapinfo *m)
{
	return m->bpf_type == BPF_MAP_TYPE_PERCPU_HASH ||
	       m->bpf_type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	       m->bpf_type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/* Kinds of records the BPF programs send to user space. */
enum ev_kind {
	EV_PRINTF,	/* fmt, args */
	EV_PRINT_VAL,	/* one value of type arg_types[0] */
	EV_PRINT_MAP,	/* map, then u64 top, u64 div */
	EV_CLEAR,
	EV_ZERO,
	EV_TIME,	/* fmt */
	EV_EXIT,
	EV_JOIN,	/* u64 count, then JOIN_MAX strings; fmt: separator */
	EV_SYSTEM,	/* fmt, args: a command for /bin/sh */
	EV_FREOPEN,	/* fmt, args: D's freopen(): where output goes */
	EV_SETOPT,	/* strings: D's setopt(name[, value]) */
	EV_CAT,		/* fmt, args: the name of a file to print */
	EV_UNWATCH,	/* u64 address: remove the watchpoints on it */
	EV_NORMALIZE,	/* map, then u64 divisor (D's normalize(); 1:
			 * denormalize()) */
};

/* What the stacks of one depth need (compiler.stack_needs): the
 * kernel's stack map (kstack, frame-pointer ustack: get_stackid), the
 * walker's hash of walked stacks (bpf/cg_unwind.c), or both. */
enum { STACK_NEED_TRACE = 1, STACK_NEED_WALK = 2 };

/* compiler.run_mode: what a run does with the script's probes. */
enum run_mode {
	RUN_TRACE,	/* attach and trace; test and bench probes ignored */
	RUN_TEST,	/* --test: BEGIN, each test probe, END */
	RUN_BENCH,	/* --bench: BEGIN, each bench probe timed, END */
};

#define JOIN_MAX 16	/* join() prints at most this many strings */

/* The id of the ring buffer record {id, u64 tgid} by which BPF reports
 * a process it saw first (cg_note_pid); script events count from 0.
 * It fits a sign-extended 32-bit immediate. */
#define EVID_USYM_PID ((uint64_t)-2)
/* The id of the record {id, u64 prog, u64 address, u64 tgid} by which
 * a FUNC+argN watchpoint's uprobe asks user space to watch ADDRESS with
 * program PROG (an index in compiler.progs), then to SIGCONT the
 * stopped process TGID unless the watchpoint is async. */
#define EVID_WATCH ((uint64_t)-3)
/* -k: the record {id, u64 site, s64 error} by which BPF reports a
 * checked helper call that failed (cg_check_helper); the site is an
 * index in compiler.helper_sites. */
#define EVID_HELPER_ERROR ((uint64_t)-4)
/* D: the records {id, u64 speculation} of commit() and discard(): the
 * runtime prints or drops the records kept for that speculation, whose
 * event ids carry it in their high half (run/spec.c). */
#define EVID_SPEC_COMMIT ((uint64_t)-5)
#define EVID_SPEC_DISCARD ((uint64_t)-6)
/* D: the record {id, u64 prog << 32 | probe ID, u64 action << 8 |
 * fault, u64 address} of a fault that stopped a clause (bpf/cg.c); the
 * runtime says it as dtrace does.  DFLT_ are DTrace's fault numbers
 * (DTRACEFLT_BADADDR, ...). */
#define EVID_D_FAULT ((uint64_t)-7)
/* The record struct unw_miss (catalog/cfi.h) by which the stack
 * walker asks for the rows of a file it met (run/unwind.c). */
#define EVID_UNW_FILE ((uint64_t)-8)
#define DFLT_BADADDR 1
#define DFLT_ILLOP 3
#define DFLT_DIVZERO 4
#define DFLT_NOSCRATCH 5

struct ev_arg {
	struct type *ty;
	int off;		/* offset in the record (after the id) */
	int isize;		/* an integer's own size (the record's is
				 * 8): D's printf prints it so */
};

struct event_spec {
	enum ev_kind kind;
	const char *fmt;	/* printf/time format (escapes resolved) */
	size_t fmt_len;
	int nargs;
	struct ev_arg *args;
	int size;		/* record size in bytes, id included */
	struct mapinfo *map;	/* PRINT_MAP, CLEAR, ZERO */
	struct mapinfo **maps;	/* PRINT_MAP of D's printa(@a, @b, ...):
				 * all of them, map the first */
	int nmaps;
	struct loc loc;
	int level;		/* PRINTF: EV_LEVEL_* (errorf, warnf) */
	const char *where;	/* errorf, warnf: "FILE:L:C-E: ERROR: " */
	int vsize;		/* PRINT_VAL: an integer's own size (the
				 * record's is 8): D's trace() widths */
};

/* printf's records go to stdout; errorf's and warnf's to stderr after
 * their place (warnf's nowhere under --no-warnings). */
enum { EV_LEVEL_PRINT, EV_LEVEL_WARN, EV_LEVEL_ERROR, EV_LEVEL_SILENT,
       EV_LEVEL_DTFIRE };	/* D's firing line: the header first */

/* Stats map slots: [0] lost events, [STATS_MAP_DROPS + map id] drops,
 * then, when the script records kernel stacks, [STATS_STACKS(c)] the
 * stacks bpf_get_stackid could not store. */
#define STATS_LOST 0
#define STATS_MAP_DROPS 1
#define STATS_STACKS(c) (STATS_MAP_DROPS + (c)->nmaps)
/* D's speculations (bpf/cg_spec.c): [STATS_SPEC(c)] speculation()
 * calls that found none free, [+ 1] a generation counter, then one slot
 * per speculation: 0 free, else its tag, generation << 8 | id. */
#define STATS_SPEC(c) (STATS_STACKS(c) + 1)
#define SPEC_MAX 64		/* -x nspec: speculation() tries each;
				 * an id fits a tag's low 8 bits */
/* D: [STATS_DEXIT(c)] 1 once a clause called exit(): the clauses that
 * come after it (in that firing or later ones) do not run, END's
 * excepted, as in DTrace, whose probes stop firing at exit(). */
#define STATS_DEXIT(c) (STATS_SPEC(c) + 2 + SPEC_MAX)

/* -k: a helper call whose failures are reported, by its place in the
 * script and its helper (the probes of a wildcard share one). */
struct helper_site {
	struct loc loc;
	const char *helper;	/* "probe_read_user_str", "map_update_elem" */
};

struct program;		/* lang/ast.h */
struct prog_spec;	/* bpf/prog.h */
struct btf;
struct dwarf_cache;

struct compiler {
	int phase;		/* the last phase done (compile.h) */
	struct arena arena;
	struct diag diag;
	const char *src;
	size_t srclen;
	struct program *ast;

	/* options */
	int strlen_;		/* BPFTRACE_STRLEN, default 64 */
	const char *trunc_trailer;	/* str_trunc_trailer: printf's %s of a
					 * string that fills max_strlen ends
					 * with it; NULL: ".." (0.17: "") */
	int map_keys_max;	/* BPFTRACE_MAP_KEYS_MAX, default 4096 */
	int cat_bytes_max;	/* BPFTRACE_CAT_BYTES_MAX: cat() prints at
				 * most this much of a file, default 10240 */
	bool verbose;		/* -v: say what sonde does (mounts) */
	const char *tracefs;	/* read this directory as tracefs instead of
				 * finding (or mounting) the system's: the
				 * fuzz targets' fixed catalogue */
	int target_pid;		/* -p: only this process's events */
	bool has_command;	/* -c: cpid is defined */
	const char *command;	/* -c's command (NULL in the fuzz target) */
	/* D: the program -c's command runs (a script's interpreter), whose
	 * files a pid probe's module a.out, or none, names */
	const char *d_program;
	bool unsafe;		/* --unsafe: system(), signal(), override() */
	const void *probe_filter;	/* --probe-filter: a regex_t; the
					 * probes (but BEGIN, END) whose
					 * names it does not match are
					 * dropped as they expand */
	int unstable_tseries;	/* config unstable_tseries: 0 warn (the
				 * default), 1 error, 2 enable */
	bool tseries_warned;
	bool dt_quiet;		/* D: -q (the program's pragma adds to it) */
	bool dt_defaultargs;	/* D: -x defaultargs: missing $N are 0, "" */
	bool dt_argref;		/* D: -x argref: unused $N are no error */
	bool dt_zdefs;		/* D: -Z: a description may match nothing */
	int dt_nspec;		/* D: -x nspec, speculations (default 1) */
	const struct node *dt_last_commit;	/* D: the clause's last
						 * commit()'s argument
						 * (lang/dspec.c) */
	bool uses_spec;		/* D: the program speculates: the stats
				 * map has STATS_SPEC's slots */
	bool d_alloca;		/* D: the script uses scratch memory (alloca,
				 * bcopy, stores through pointers): each
				 * clause gets dt_scratchsize bytes of it */
	long dt_scratchsize;	/* D: -x scratchsize (default 256) */
	int dscratch;		/* bpf: bytes of the scratch map before
				 * sonde's own: D's top word, then its
				 * scratch (0 without d_alloca) */
	bool lang_d;		/* the script is D (sonde dtrace): lang/dparse.c
				 * reads it, and the places where D's rules
				 * differ ask this field */
	bool dialect_017;	/* --dialect=0.17 (SONDE_DIALECT=0.17): keep
				 * bpftrace 0.17's behaviour where 0.26's
				 * differs (docs/language.md lists where);
				 * each such place asks this field */
	int run_mode;		/* RUN_TRACE, or --test, --bench: which
				 * probes a run keeps (probe.c) */
	/* sonde serve, for a user who is not root (docs/sonde-serve.8):
	 * every probe of a task's event starts with a test of the uid
	 * (a prologue the script cannot remove), and nothing reads the
	 * kernel's memory but the probe's own context */
	bool filter_uid_on;
	uint32_t filter_uid;
	int cred_off, euid_off;	/* task_struct.cred, cred.euid (BTF): the
				 * effective uid must match too, so that a
				 * setuid program the user starts is not
				 * the user's to trace */
	bool restricted;
	bool hist_sums;		/* --metrics: hist() and lhist() keep one
				 * more slot per key, bucket hist_sum_slot(),
				 * the sum of their values (a Prometheus
				 * histogram's _sum) */
	int check_helpers;	/* -k: 1 reports failed helper calls but
				 * memory reads, -kk: 2 those too */
	bool kprobe_multi;	/* the kernel attaches kprobe_multi programs
				 * (probes.c checks when a kprobe wildcard
				 * expands) */
	bool kprobe_multi_checked;
	bool uprobe_multi;	/* the kernel attaches uprobe_multi programs
				 * (probes.c checks when a uprobe wildcard
				 * expands) */
	bool uprobe_multi_checked;
	bool no_syscall_mux;	/* --no-feature syscall_mux: each
				 * syscalls:* tracepoint its own program */
	bool no_tracepoint_raw;	/* --no-feature tracepoint_raw: each other
				 * tracepoint of a wildcard on its perf event */
	int rawtp_cookie;	/* raw tracepoint links carry a cookie
				 * (Linux 6.10): -1 not yet asked */
	int uprobe_write_ctx;	/* uprobe programs may write registers
				 * (Linux 7.0): -1 not yet asked */
	bool settled;		/* a traced process was given time to exec */
	int sleepable_uprobe;	/* uprobes' programs may sleep (Linux 6.0):
				 * -1 not yet asked (probe.c asks once, when
				 * a uprobe, uretprobe or usdt expands) */
	char **params;		/* positional parameters $1.. */
	int nparams;
	uint64_t params_used;	/* D: bit N-1: $N is referenced somewhere
				 * (an unreferenced one is D_MACRO_UNUSED) */
	/* named program parameters (after "--": --NAME=VALUE, --NAME),
	 * read by getopt(); value NULL for a bare --NAME; used: some
	 * getopt() names it (an unused one is an error) */
	struct named_param {
		const char *name, *value;
		bool used;
	} *named;
	int nnamed;
	/* the preprocessor (lang/pp.h) */
	const char *srcdir;	/* the script's directory: "..." includes;
				 * NULL: the current one */
	const char *const *incdirs;	/* -I */
	int nincdirs;
	const char *const *includes;	/* --include */
	int nincludes;
	const char *pp_defines;	/* D's -D and -U: #define and #undef lines */
	const char *kernel_src;	/* BPFTRACE_KERNEL_SOURCE: kernel headers */
	int stack_mode;		/* BPFTRACE_STACK_MODE: enum stack_mode of
				 * kstack and ustack without one */
	/* more config variables (src/config.c) */
	int max_probes;		/* BPFTRACE_MAX_PROBES, default 512 */
	int max_progs;		/* BPFTRACE_MAX_BPF_PROGS, default 512 */
	int rb_pages;		/* BPFTRACE_PERF_RB_PAGES, 0: not given */
	int cpp_demangle;	/* BPFTRACE_CPP_DEMANGLE, default 1 */
	int show_debug_info;	/* config show_debug_info: user stacks with
				 * source lines and inlined functions */
	int dwarf_unwind;	/* config dwarf_unwind: ustack walks the
				 * CFI (bpf/cg_unwind.c), default 1 */
	bool uses_unwind;	/* some ustack walks: the loader makes the
				 * walker's maps (run/unwind.c) */
	/* ... reading these members of the kernel's structs (BTF), in
	 * order: vm_area_struct's vm_start, vm_end, vm_pgoff, vm_file,
	 * file's f_inode, inode's i_ino and i_sb, super_block's s_dev,
	 * task_struct's mm; offset, then size */
	int unw_btf[9][2];
	int unstable_dw_ustack;	/* 0 warn (the default), 1 error, 2 enable */
	bool dw_ustack_warned;
	int print_maps;		/* print_maps_on_exit, default 1 */
	int missing_probes;	/* a probe of a wildcard that fails to
				 * attach: 0 error, 1 warn, 2 ignore; -1 not
				 * set: error (0.26), warn (0.17) */
	unsigned config_env;	/* bit per config variable the environment
				 * set: the config block leaves those */
	const char *btf_path;	/* BPFTRACE_BTF: the kernel's BTF from this
				 * file, not /sys/kernel/btf/vmlinux */
	const char *include_root;	/* read no file outside it (the fuzz
					 * target's tree) */

	struct btf *btf;	/* kernel BTF, loaded on first use */
	struct type **stypes;	/* structs and unions the script defines */
	int nstypes;
	struct node **enums;	/* enumerators the script defines (N_MEMBER) */
	int nenums;
	struct strmap stype_names;	/* "struct foo" -> struct type */
	struct strmap enum_names;	/* enumerator -> N_MEMBER node */
	struct strmap enum_defs;	/* enumerator -> its enum_def */
	struct strmap typedef_names;	/* the script's typedefs -> type */
	bool btf_failed;
	struct strmap btf_enums;	/* the kernel's enumerators -> their
					 * value (int64_t), on first use */
	bool btf_enums_read;
	struct strmap btf_enum_defs;	/* BTF id -> struct enum_def */
	/* The ELF files whose DWARF the compile read (catalog/dwarf.c),
	 * open until compiler_free(), which closes them through
	 * dwarf_close (set with them: base/ calls nothing above it). */
	struct dwarf_cache *dwarf;
	void (*dwarf_close)(struct compiler *c);

	/* sema */
	struct mapinfo **maps;
	int nmaps;
	struct event_spec *events;
	int nevents, events_cap;
	/* strftime() formats, cgroup_path() filters: a value carries the
	 * index of its own */
	const char **tfmts;
	int ntfmts;
	const char **cgfilters;
	int ncgfilters;
	/* skboutput()'s pcap files: a packet's record names its path by
	 * the index here */
	const char **skb_paths;
	int nskb_paths;
	/* Kernel stack maps (BPF_MAP_TYPE_STACK_TRACE): one per distinct
	 * kstack depth, as a stack id only means something in its map. */
	int *stack_depths;	/* arena, KSTACK_MAX_DEPTH slots */
	unsigned char *stack_needs;	/* per depth: STACK_NEED_* */
	int nstack_maps;
	/* ustack or usym: user symbols need the processes' mappings
	 * (usyms.c), and BPF reports each process it sees first. */
	bool uses_usyms;

	/* cg + asm */
	struct prog_spec *progs;
	int nprogs, progs_cap;
	int scratch_size;	/* bytes of the per-CPU scratch value */
	int nstats;		/* slots in the stats map */
	struct helper_site *helper_sites;	/* -k */
	int nhelper_sites, helper_sites_cap;
};

void compiler_init(struct compiler *c, const char *file, const char *src,
		   size_t len);
/* Free everything the compile made: the arena, the tables, kernel BTF,
 * the DWARF files it read. */
void compiler_free(struct compiler *c);

#endif
