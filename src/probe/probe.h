/* probe.h - probe kinds behind one interface.
 *
 * Each kind is one row of the registry (probe.c): a struct probe_ops
 * with what the compile asks (names, flags, the context its programs
 * get, how a spec expands, how the kernel loads the program) and what
 * run/ asks at run time (attach, run, explain a failure).  A family of
 * kinds is one file: special.c (BEGIN, END, iter), perf.c (interval,
 * profile, software, hardware), watch.c (watchpoint, asyncwatchpoint),
 * tracepoint.c (tracepoint,
 * rawtracepoint), kfunc.c (kprobe, kretprobe, fentry, fexit), uprobe.c
 * (uprobe, uretprobe, usdt).  Nothing outside probe/ switches over
 * kinds: sema asks the flags, bpf/ reads the context by its
 * enum probe_ctx, run/ calls the operations.
 */
#ifndef SONDE_PROBE_H
#define SONDE_PROBE_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"
#include "lang/ast.h"

enum probe_kind {
	PK_BEGIN,
	PK_END,
	PK_INTERVAL,
	PK_PROFILE,	/* perf sampling on every CPU */
	PK_SOFTWARE,	/* perf software event on every CPU */
	PK_HARDWARE,	/* perf hardware event on every CPU */
	PK_TRACEPOINT,
	PK_RAWTP,
	PK_WATCHPOINT,
	PK_ITER,
	PK_UPROBE,
	PK_URETPROBE,
	PK_KPROBE,
	PK_KRETPROBE,
	PK_FENTRY,
	PK_FEXIT,
	PK_LSM,		/* a BPF LSM program on a security hook */
	PK_USDT,	/* a uprobe on a stapsdt note's NOP */
	PK_ASYNCWATCH,	/* asyncwatchpoint:FUNC+argN:LEN:MODE */
	PK_WATCHARG,	/* the block of a FUNC+argN watchpoint */
	PK_WATCHSETUP,	/* the uprobe that reports FUNC's argN */
	PK_SELF,	/* self:signal:SIGUSR1, run when sonde gets it */
	PK_TEST,	/* test:NAME, run once by --test */
	PK_BENCH,	/* bench:NAME, timed by --bench */
	PK_NKINDS
};

/* What a program's context (r1) is, which decides how sema types and
 * bpf/ reads argN, args.NAME, retval, reg() and ctx.  A new kind of
 * context is one value here and one case in bpf/cg_ctx.c. */
enum probe_ctx {
	CTX_NONE,	/* BEGIN, END: run by BPF_PROG_TEST_RUN, no context */
	CTX_PERF,	/* struct bpf_perf_event_data: pt_regs first */
	CTX_REGS,	/* struct pt_regs; argN in the calling convention's
			 * registers (arg0..arg5) */
	CTX_USDT,	/* struct pt_regs; argN are the note's operands */
	CTX_RECORD,	/* a tracepoint's record: args.NAME at the offsets
			 * of its tracefs format */
	CTX_RAWTP,	/* u64 args[]: argN; args.NAME by BTF (tp_btf) */
	CTX_FUNC,	/* u64 args[] of a BPF trampoline: args.NAME by
			 * BTF, then the return value (fexit) */
	CTX_ITER,	/* struct bpf_iter__KIND: ctx */
};

/* When run/ starts a kind's programs. */
enum probe_stage {
	STAGE_ATTACH,	/* attached before BEGIN, fires on events */
	STAGE_BEGIN,	/* run once, before the events */
	STAGE_ITER,	/* run once after BEGIN, then the script ends */
	STAGE_END,	/* run once, after the events */
	STAGE_WATCH,	/* attached by the runtime to each address a
			 * watchpoint's uprobe reports (watch.c) */
	STAGE_SIGNAL,	/* run each time sonde receives the signal */
	STAGE_TEST,	/* --test: run once each, after BEGIN */
	STAGE_BENCH,	/* --bench: run many times each, after BEGIN */
};

/* Flags sema and bpf/ ask of a kind. */
enum {
	PF_FUNC = 1 << 0,	/* at a function: `func` names it */
	PF_RETVAL = 1 << 1,	/* at a function's return: `retval` */
	PF_REGS = 1 << 2,	/* the context starts with the interrupted
				 * registers: reg() */
	PF_TASK = 1 << 3,	/* the current task is the one the event
				 * happened in (-p filters by it) */
	PF_SONDE = 1 << 4,	/* runs in sonde's own process: no stacks */
	PF_USER = 1 << 5,	/* in a process: uaddr(); memory reads
				 * default to the process's */
	PF_OVERRIDE = 1 << 6,	/* override() may change the return */
	PF_TIMER = 1 << 7,	/* driven by sonde or a timer, not by kernel
				 * events: a small ring buffer will do */
	PF_SLEEP = 1 << 11,	/* its program may be sleepable (Linux 6.0:
				 * uprobes), to fault in user pages */
	PF_DPATH = 1 << 10,	/* may call bpf_d_path (fentry/fexit, on the
				 * kernel's list of functions; iter): path() */
	PF_SKBOUT = 1 << 12,	/* may call bpf_skb_output with a struct
				 * sk_buff of BTF (fentry/fexit): skboutput() */
	PF_LIFO = 1 << 8,	/* the kernel runs the programs attached to
				 * one point newest first (uprobe consumers):
				 * run/ attaches them last first */
	PF_MADE = 1 << 9,	/* made by another kind, never written:
				 * no name looks it up */
	PF_MODRET = 1 << 13,	/* override() makes the program's return
				 * value the function's (fentry: then a
				 * BPF_MODIFY_RETURN program) */
};

struct tp_format;
struct usdt_arg;
struct probe_ops;

/* One attach point; each gets its own BPF program. */
/* System call numbers a raw_syscalls merge selects by: below this. */
#define SYS_NR_MAX 1024

struct probe_spec {
	const struct probe_ops *ops;	/* its kind */
	const char *name;	/* full name as `probe` shows it */
	uint64_t period_ns;	/* INTERVAL */
	/* perf events (PROFILE, SOFTWARE, HARDWARE, WATCHPOINT) */
	uint32_t perf_type;
	uint64_t perf_config;
	uint64_t sample;	/* period, or frequency when freq */
	bool freq;
	uint64_t bp_addr;	/* WATCHPOINT */
	int bp_len, bp_type;
	/* WATCHARG, WATCHSETUP: argN holds the address to watch; async:
	 * the process is not stopped while the watchpoint is set */
	int watch_arg;
	bool watch_async;
	/* TRACEPOINT ("cat:name"), RAWTP (name), ITER (name) */
	const char *target;
	struct tp_format *tp;	/* TRACEPOINT: the record's fields */
	int tp_id;		/* TRACEPOINT: the event id */
	int attach_btf_id;	/* ITER: BTF id of bpf_iter_NAME; RAWTP
				 * with typed args: of btf_trace_NAME;
				 * FENTRY, FEXIT: of the function */
	bool tp_btf;		/* RAWTP: load as a BTF-typed tp_btf program */
	/* FENTRY, FEXIT of a BPF program (fentry:bpf:ID:NAME): its id, its
	 * function's BTF id in attach_btf_id, its number of arguments */
	uint32_t attach_prog_id;
	int bpf_nargs;
	bool user_mem;		/* pointers in the context point into the
				 * process (uprobes, usdt, syscalls
				 * tracepoints) */
	/* UPROBE, URETPROBE, USDT; KPROBE, KRETPROBE (func, uoffset) */
	const char *path;	/* the ELF file */
	uint64_t uoffset;	/* file offset of the probed instruction */
	uint64_t uvaddr;	/* its virtual address in the file (uaddr) */
	const char *func;	/* the function, for `func` */
	uint64_t func_off;	/* UPROBE: the OFF of FUNC+OFF (0: its entry) */
	/* USDT: the operands of arg0.. at this location, and the file
	 * offset of the probe's semaphore (0: none), which the kernel
	 * counts in while the uprobe is attached */
	const struct usdt_arg *uargs;
	int nuargs;
	const char *usdt_args;	/* the note's operand text */
	uint64_t ref_ctr_offset;
	const char *ctx_struct;	/* ITER: "struct bpf_iter__task" */
	const char *pin;	/* ITER: the bpffs file it is pinned to
				 * (iter:task:PIN), its printf()s going
				 * to it through bpf_seq_printf() */
	bool wild;		/* one of several a wildcard matched */
	bool modify_return;	/* PF_MODRET and the block calls override():
				 * the program returns what the function
				 * will (0: run it) */
	const char **multi;	/* the functions of one kprobe_multi or
				 * uprobe_multi program (NULL: one) */
	const uint64_t *umulti;	/* uprobe_multi: their offsets in path */
	const char *ddesc;	/* D: the description it expanded from */
	int nmulti;
	/* a merged uprobe_multi spec: its specs, nmulti of them, whose
	 * names (probe, func, probefunc, probefn) its program reads from
	 * a table the link's cookie indexes (bpf/cg_site.c): SITES,
	 * nmulti rows of SITE_ROW bytes, NULL until one is read */
	const struct probe_spec *parts;
	char *sites;
	int site_row;
	/* a merged syscalls:sys_enter_* or sys_exit_* block on
	 * raw_syscalls (probe/tracepoint.c): the system call number of
	 * each part, which the program selects by (bpf/cg_site.c) */
	const int *sys_nrs;
	struct loc loc;
};

/* How the kernel loads a spec's program. */
struct probe_load {
	enum bpf_prog_type type;
	enum bpf_attach_type expected_attach_type;
	uint32_t attach_btf_id;
	uint32_t attach_prog_id;	/* a BPF program's id: the loader
					 * opens it as attach_prog_fd */
	bool sleepable;		/* set by cg: the program faults pages in */
};

/* One attach point being expanded: what probe.c hands a kind's expand
 * operation, which adds the specs it matches with probe_add(). */
struct probe_exp {
	struct compiler *c;
	const struct probe_ops *ops;	/* the kind the type names */
	struct loc loc;
	const char *text;	/* the spec as written, $N replaced */
	const char *ddesc;	/* D: the probe description it came from */
	char **f;		/* its fields, split at ':' (arena) */
	int nf;
	struct probe_spec *v;	/* the specs made */
	int n, cap;
	/* set by probe_missing(): the spec is well formed but names
	 * nothing that exists (arena) */
	const char *missing;
};

/* What run/ gives a kind's attach operation, and where that operation
 * leaves the file descriptors it opens: every attachment is owned by
 * one, so the kernel detaches all when sonde exits, however it exits. */
struct probe_env {
	int pid;		/* -p's process, or -c's command; 0: none */
	int ncpus;		/* possible CPUs (perf events per CPU) */
	bool verbose;
	/* FDs that run programs (links; perf events given a program by
	 * ioctl): closing one stops its program */
	int *links;
	int nlinks, links_cap;
	/* perf events that links hold: closed after the links (slow) */
	int *events;
	int nevents, events_cap;
	/* a warning run/ prints at once (a function of a uprobe_multi
	 * set skipped), or NULL */
	void (*warn)(void *arg, const char *msg);
	void *warn_arg;
	/* a function of a multi set that does not attach: 0 fails the
	 * probe (naming the function in *failed, static), 1 warns and
	 * skips it, 2 skips it (missing_probes) */
	int missing;
	char failed[256];
};

struct probe_ops {
	const char *name;	/* "kprobe": the type as written */
	const char *alias;	/* "k": bpftrace's short name, or NULL */
	const char *alias2;	/* another accepted spelling ("kfunc") */
	enum probe_kind kind;
	unsigned flags;		/* PF_* */
	enum probe_ctx ctx;
	enum probe_stage stage;

	/* compile time */
	/* Turn X's fields into specs (probe_add); 0, or -1 after an
	 * E_PROBE error (probe_error). */
	int (*expand)(struct probe_exp *x);
	/* Several specs of one block as one program (kprobe_multi,
	 * uprobe_multi, raw_syscalls, raw tracepoints), or NULL: each its
	 * own.  NEED: MERGE_* bits but MERGE_PER_SITE.  A merge may take
	 * the first nmulti of V only, having put those first. */
	struct probe_spec *(*merge)(struct compiler *c, struct probe_spec *v,
				    int n, unsigned need, const char *text);
	/* -l PATTERN: print this kind's probes that match (NULL: all);
	 * returns 0, or 1 after printing why it could not. */
	int (*list)(const struct probe_ops *ops, const char *pattern,
		    bool verbose, int pid);
	/* The program's type, expected attach type and BTF id. */
	void (*load)(const struct probe_spec *ps, struct probe_load *pl);

	/* run time: only run/ calls these, and only they attach */
	/* Attach program FD; 0 or -errno. */
	int (*attach)(const struct probe_spec *ps, int fd,
		      struct probe_env *env);
	/* STAGE_BEGIN, STAGE_END, STAGE_ITER: run program FD once, calling
	 * DRAIN(ARG) as its output may fill the ring buffer; 0 or
	 * -errno, with *WHAT saying what failed ("cannot run"). */
	int (*run)(const struct probe_spec *ps, int fd,
		   void (*drain)(void *arg), void *arg, const char **what);
	/* Why attaching failed with ERR, in a sentence (static), or NULL
	 * for the common reasons of probe_explain(). */
	const char *(*explain)(const struct probe_spec *ps, int err);
	/* Why loading the program failed with ERR when the kind is the
	 * cause (a kernel without BPF trampolines), or NULL. */
	const char *(*load_explain)(const struct probe_spec *ps, int err);
};

/* probe.c: the registry */
const struct probe_ops *probe_kind_ops(enum probe_kind k);
/* The kind whose name or alias is TYPE (N bytes), or NULL. */
const struct probe_ops *probe_ops_named(const char *type, size_t n);
/* The probe's type as bpftrace 0.26's probetype names it: "special"
 * for BEGIN and END, else the type as written, "kprobe". */
static inline const char *probe_type_name(const struct probe_spec *ps)
{
	return ps->ops->kind == PK_BEGIN || ps->ops->kind == PK_END ?
	       "special" : ps->ops->name;
}

/* special.c: run program FD (BEGIN, END, test) once; *RET gets its
 * return value (a test's: not 0 failed).  0 or -errno. */
int probe_test_run(int fd, int32_t *ret);
/* self.c: run time of bench probes */
/* Run PS's program FD about enough times to time it; *NS gets the
 * nanoseconds of one run, the cost of running an empty program taken
 * away.  0 or -errno. */
int probe_bench_time(int fd, uint64_t *ns);

static inline bool probe_has(const struct probe_spec *ps, unsigned flag)
{
	return (ps->ops->flags & flag) != 0;
}
static inline bool probe_is(const struct probe_spec *ps, enum probe_kind k)
{
	return ps->ops->kind == k;
}

/* Expand one attach point node into *OUT (arena array) and *N specs.
 * Reports an E_PROBE error and returns -1 when it is malformed.  When it
 * names nothing that exists (a function, tracepoint or usdt probe) and
 * MISSING is not NULL, returns 1 and sets *MISSING to the message, for
 * the caller to decide (bpftrace skips such a probe when others of its
 * block attach); with MISSING NULL that is an error too. */
int probe_expand(struct compiler *c, struct node *ap,
		 struct probe_spec **out, int *n, const char **missing);
/* D's FIELD (0 provider .. 3 name, 4 FUNCTION:NAME) of probe PS:
 * lang/dprobe.c's d_probe_field() of its description, but a USDT
 * probe's function is the one holding it (ps->func). */
const char *probe_d_field(struct arena *a, const struct probe_spec *ps,
			  int field);

/* What a block needs of its programs, which decides how probe_merge()
 * may merge them. */
enum {
	MERGE_PER_SITE = 1,	/* each site's own program (typed args) */
	MERGE_NAMES = 2,	/* the probe's name (probe, func, probefunc) */
	MERGE_KSTACK = 4,	/* the kernel's stack, as seen from the site */
};

/* The specs of one block as few programs as the kinds allow: a merged
 * spec for the run of them that starts V (*USED of them: of one kind,
 * and one file for user-space kinds), or NULL for V alone (*USED 1).
 * NEED: MERGE_* bits. */
struct probe_spec *probe_merge(struct compiler *c, struct probe_spec *v,
			       int n, unsigned need, const char *text,
			       int *used);
/* Do the probes written in AST send few events: all BEGIN, END,
 * interval or iter (read from the attach points' text as
 * probe_expand() reads it), or with blocks that call no function
 * sending a record per event (printf, print, time, ...: an aggregating
 * one-liner)?  So that the ring buffer can be sized before the script
 * is compiled: a large one costs start-up time. */
bool probe_quiet(const struct program *ast);
/* Why attaching PS failed with ERR, in one sentence. */
const char *probe_explain(const struct probe_spec *ps, int err);

/* For the kinds' files: a new zeroed spec of X's kind at X's place. */
struct probe_spec *probe_add(struct probe_exp *x);
/* An E_PROBE error at X's attach point. */
void probe_missing(struct probe_exp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void probe_error(struct probe_exp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Does TEXT have wildcard characters? */
bool probe_wild(const char *text);
/* S as an unsigned decimal number: 0, or -1 if it is not one. */
int probe_u64(const char *s, uint64_t *v);

/* FUNC+OFF in FNAME (cut at the '+'): the offset in *ADD, 0 without
 * one; -1 after an error (no offset at a return, or in a wildcard). */
int probe_func_offset(struct probe_exp *x, char *fname, uint64_t *add);

/* watch.c: the uprobe spec that reports the addresses a FUNC+argN
 * watchpoint's block BODY (STAGE_WATCH) watches. */
struct probe_spec probe_watch_setup(struct compiler *c,
				    const struct probe_spec *body);

/* common.c: what several families' run-time operations share */
int probe_perf_open(void *attr, int pid, int cpu);
/* Hand program PROG to perf event PFD (a link, or the older ioctl);
 * the fds go to ENV; 0 or -errno (PFD closed). */
int probe_perf_attach(struct probe_env *env, int pfd, int prog);
void probe_own_link(struct probe_env *env, int fd);
/* A uprobe (KERNEL false) or kprobe through its perf PMU; RET: at the
 * return.  0 or -errno. */
int probe_pmu_attach(const struct probe_spec *ps, int fd,
		     struct probe_env *env, bool kernel, bool ret);
/* An error of probe_pmu_attach: the kernel has no kprobe PMU. */
#define PROBE_ENOKPROBES 10001

/* list.c: sonde -l */
/* Print every probe matching PATTERN (fnmatch over the full name; NULL:
 * all); with VERBOSE, tracepoint fields and usdt arguments.  Returns 0,
 * or 1 after an error. */
int probe_list(const char *pattern, bool verbose, int pid);
/* Print the probes the checked script of C would attach. */
void probe_list_script(struct compiler *c);

#endif
