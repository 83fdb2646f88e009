/* tracer.h - run time: what the tracer owns (maps, programs, the ring
 * buffer, attachments, the -c command) and the phases that fill it:
 * the loader (loader.c), attaching (attach.c) and the event loop
 * (runtime.c).  None of it sees the AST, only the specs of the compile
 * (base/compiler.h, bpf/prog.h); output goes through out/'s printer.
 *
 * Functions return 0 or -errno; when one fails, t->err says what, with
 * the name of the object ("probe uprobe:/bin/bash:readline: attach
 * failed: ..."), and only main.c prints it.  Warnings and -v's notes
 * are printed as they happen (rt_warn). */
#ifndef SONDE_TRACER_H
#define SONDE_TRACER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include "base/compiler.h"
#include "bpf/prog.h"
#include "out/printer.h"
#include "run/ringbuf.h"

struct watch;
struct perf_buffer;

struct tracer {
	struct compiler *c;
	struct printer pr;	/* where and how the output goes */
	bool buffered;		/* -B: stdio flushes the output, not sonde */
	bool verbose, quiet;
	/* D: what "dtrace: WHAT 'NAME' matched N probes" says */
	const char *dt_what, *dt_name;
	int dt_extra;		/* probes matched and not attached (ERROR) */
	bool exit_called;	/* a probe called exit() */
	bool dry_run;		/* --dry-run: attach, then leave before BEGIN */
	bool debug_verifier;	/* -d verifier: print each program's log */
	bool no_warnings;	/* --no-warnings: no warnings on stderr */
	bool no_demangle;	/* BPFTRACE_NO_CPP_DEMANGLE */
	bool no_usyms;		/* BPFTRACE_NO_USER_SYMBOLS */
	int max_probes;		/* BPFTRACE_MAX_PROBES */
	int max_progs;		/* BPFTRACE_MAX_BPF_PROGS */
	int scratch_fd, stats_fd;
	struct ringbuf rb;
	struct probe_env env;	/* what attach opened: links, perf events */
	int ncpus_online;
	uint64_t pidns_dev, pidns_ino;	/* pid(curr_ns); 0: initial */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at start */
	bool exiting;
	bool d_begin;		/* D: BEGIN runs; its records wait (runtime.c) */
	int exit_code;		/* exit(code): the first one's */
	bool polling;		/* in the event loop: a signal ends a batch */
	int target_pid;		/* -p: exit when it exits */
	int child_pid;		/* -c: the command, held until attached */
	int child_go;		/* -c: write end of the pipe that releases it */
	struct rlimit nofile;	/* the descriptor limit sonde started with,
				 * which -c's command gets back (tracer_init
				 * raises the soft one to the hard) */
	int child_status;	/* -c: its wait status once it exited */
	bool child_done;
	uint64_t *drops_seen;	/* per map, drops already reported */
	int *stack_fds;		/* per kernel stack map (c->stack_depths) */
	int useen_fd;		/* ustack/usym: processes BPF has seen */
	/* ustack walked by the CFI (run/unwind.c): the walker's tables,
	 * the processes given at start (-p, --dwarf-pid), and per stack
	 * map (c->stack_depths) the hash map of walked stacks */
	struct unwinder *unw;
	int unw_fds[4];		/* files' information, rows, misses,
				 * mappings met (run/unwind.h) */
	int *dwarf_pids, ndwarf_pids;
	const char *command;	/* -c's, or NULL */
	int *dwstack_fds;
	/* skboutput(): the perf event array, its buffer, pages per CPU
	 * (BPFTRACE_PERF_RB_PAGES), one pcap file per path */
	int skb_fd;
	struct perf_buffer *skb_pb;
	long skb_pages;
	FILE **pcaps;
	uint64_t skb_lost, skb_failed;
	FILE *flame;		/* --flamegraph: the SVG written at exit */
	FILE *out0;		/* D's freopen(): the output before it */
	bool dt_buftoosmall;	/* D: -x bufsize or aggsize holds no record */
	bool dt_droptags;	/* D: -x droptags: drops say their kind */
	long dt_fill_left;	/* D's bufpolicy=fill: bytes until tracing
				 * stops (0: not that policy) */
	bool dt_filled;		/* ... and it stopped: later records but
				 * END's are dropped */
	/* D's speculations (spec.c): the records kept per id, the bytes
	 * each may keep (-x specsize), the records dropped past it */
	struct spec_buf *specs;
	int nspecs;
	long specsize;
	uint64_t spec_drops;
	struct watch *watches;	/* FUNC+argN breakpoints set (watch.c) */
	int nwatches, watches_cap;
	/* --metrics (metrics.c): the HTTP server, and the lock the main
	 * thread holds while it prints, so that a scrape never meets
	 * the symbol caches half updated */
	struct metrics *metrics;
	pthread_mutex_t print_lock;
	char *err;		/* what failed (malloc'd), for main.c */
};

/* tracer.c */
void tracer_init(struct tracer *t, struct compiler *c, FILE *out);
/* Close everything the tracer opened, whatever state it is in. */
void tracer_close(struct tracer *t);
/* Record what failed (printf-style) in t->err; returns -ERR. */
int rt_fail(struct tracer *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A warning or a -v note, now, on stderr: "sonde: " MSG. */
void rt_warn(struct tracer *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* metrics.c: serve the maps at ADDR (PORT, HOST:PORT, [IPV6]:PORT;
 * host 127.0.0.1 when not given) until rt_metrics_stop(). */
int rt_metrics_start(struct tracer *t, const char *addr);
void rt_metrics_stop(struct tracer *t);
/* evhttp's answer to any path but /metrics: 404, saying where to look. */
struct evhttp_request;
void rt_http_not_found(struct evhttp_request *req, void *arg);

/* loader.c: create the maps, relocate and load every program. */
int ld_load(struct tracer *t);
/* One sentence on why BPF is unusable for errno ERR. */
const char *ld_explain(int err);

/* attach.c */
/* How many probes the programs are (a kprobe_multi program counts each
 * function): "Attaching N probes...". */
int at_count(const struct tracer *t);
/* 0, or -E2BIG when the probes or programs are more than
 * BPFTRACE_MAX_PROBES or BPFTRACE_MAX_BPF_PROGS allow. */
int at_check_limits(struct tracer *t);
/* Attach the programs that wait for events (STAGE_ATTACH); a
 * wildcard's probe the kernel refuses is skipped with a warning, and
 * it fails only if all NPROBES were. */
int at_attach_all(struct tracer *t, int nprobes);
/* Stop every program (quick); then close the perf events links held
 * (slow: tracer_close() does it, after the output). */
void at_detach_all(struct tracer *t);
void at_close_events(struct tracer *t);

/* process.c */
/* dtrace -l -c CMD: CMD's process, stopped (ptrace) at its exec, as
 * dtrace lists its probes; its pid, or -1.  rt_end_stopped() kills it. */
int rt_spawn_stopped(const char *cmd);
void rt_end_stopped(int pid);
/* -c: fork CMD (through /bin/sh), held until rt_release_child(). */
int rt_spawn(struct tracer *t, const char *cmd);
/* -c: let the command run (exec) now that everything is attached. */
void rt_release_child(struct tracer *t);
/* Has the command (-c) or the traced process (-p) gone? */
bool rt_target_gone(struct tracer *t);
/* system(): the command of record REC, run by /bin/sh while sonde
 * waits, its output where sonde's goes (JSON: a "syscall" message). */
/* D's freopen(): later output to the file the record names, appended,
 * or back to where it went first for "". */
void rt_freopen(struct tracer *t, const struct event_spec *e,
		const uint8_t *rec);
void rt_system(struct tracer *t, const struct event_spec *e,
	       const uint8_t *rec);

/* watch.c: FUNC+argN watchpoints */
/* Record EVID_WATCH: watch its address with its program, then let the
 * process it stopped continue. */
void rt_watch(struct tracer *t, const uint8_t *rec, size_t size);
/* unwatch(ADDR): close every breakpoint on ADDR. */
void rt_unwatch(struct tracer *t, uint64_t addr);
/* Stop their programs and let a process stopped for one go on (with
 * at_detach_all); close all (tracer_close). */
void rt_watch_detach(struct tracer *t);
void rt_watch_close(struct tracer *t);

/* spec.c: D's speculations.  A record of the ring buffer that belongs
 * to one (ID's high half) or ends one (commit, discard): keep it, or
 * hand the kept records to HANDLE, or free them.  False for other
 * records. */
bool rt_spec_event(struct tracer *t, uint64_t id, const uint8_t *rec,
		   size_t size, int (*handle)(void *, void *, size_t));
/* At the end: "dtrace: N speculative drops" when some were; then free
 * what is kept. */
void rt_spec_close(struct tracer *t);

/* runtime.c */
/* Start making the ring buffer, sized for a script whose probes send
 * few events (QUIET: probe_quiet) or not, or as BYTES or
 * PAGES per CPU ask (0: not asked; rb_size): as soon as it is
 * parsed. */
void rt_ringbuf_start(struct tracer *t, bool quiet, long bytes,
		      long pages);
/* BEGIN, the events until exit(), a signal or the end of the -c
 * command or -p process, END, the maps. */
int rt_run(struct tracer *t);

/* selftest.c: --test and --bench, after BEGIN */
/* Run each test probe, keeping its output back unless it fails; say
 * which passed; t->exit_code is 1 if one failed. */
int rt_run_tests(struct tracer *t);
/* Time each bench probe; print the table of their times. */
int rt_run_benches(struct tracer *t);

/* skbout.c: skboutput()'s packets */
/* Create its pcap files (truncated) and open the perf buffer on
 * t->skb_fd, when the script calls skboutput(). */
int rt_skb_start(struct tracer *t);
/* Write the packets the perf buffer holds to their files. */
void rt_skb_consume(struct tracer *t);
/* Close the buffer, the files and the map; say what was lost. */
void rt_skb_close(struct tracer *t);

/* signals.c: SIGINT and SIGTERM stop the run, SIGUSR1 runs the
 * self:signal:SIGUSR1 probes (with --dialect=0.17: prints the maps). */
void rt_install_signals(void);
/* Whether SIGUSR1 came since the last call (take: and forget it). */
bool rt_print_requested(void);
bool rt_take_print_request(void);
/* The signal that asked the run to stop, or 0. */
int rt_stop_signal(void);
/* In a child before exec: default actions, and MASK (if not NULL) as
 * the signal mask. */
void rt_child_signals(const sigset_t *mask);

#endif
