/* tracer.h - the loader, attach, runtime and printer share this: what the tracer owns at run
 * time.  None of it sees the AST, only the specs in struct compiler. */
#ifndef SONDE_TRACER_H
#define SONDE_TRACER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/compiler.h"

struct ring_buffer;
struct ksyms;
struct usyms;
struct usernames;
struct fold;
struct fold_frames;

/* -f: what the output is. */
enum out_format {
	OUT_TEXT,	/* bpftrace's text */
	OUT_JSON,	/* newline-delimited JSON messages (json.c) */
	OUT_FOLDED,	/* stack maps as folded lines (fold.c), the rest
			 * as text; maps that do not fold go to stderr */
};

struct tracer {
	struct compiler *c;
	FILE *out;
	enum out_format format;
	bool buffered;		/* -B: stdio flushes t->out, not sonde */
	bool color;		/* hist bars in colour: a terminal, no NO_COLOR */
	bool verbose, quiet;
	int scratch_fd, ringbuf_fd, stats_fd;
	struct ring_buffer *rb;
	/* the ring buffer's maker (ld_ringbuf_start) */
	int rb_size, rb_err, rb_map_err;
	bool rb_started, rb_threaded, rb_made;
	pthread_t rb_thread;
	pthread_mutex_t rb_lock;
	pthread_cond_t rb_cond;
	int *attach_fds;	/* links, and perf events without a link */
	int nattach, attach_cap;
	int *event_fds;		/* perf events that links hold */
	int nevent, event_cap;
	int ncpus_possible;
	int ncpus_online;
	uint64_t start_ns;	/* CLOCK_MONOTONIC at start */
	int64_t mono_to_epoch;	/* add to a CLOCK_MONOTONIC ns for epoch ns */
	bool exiting;
	int target_pid;		/* -p: exit when it exits */
	int child_pid;		/* -c: the command, held until attached */
	int child_go;		/* -c: write end of the pipe that releases it */
	int child_status;	/* -c: its wait status once it exited */
	bool child_done;
	uint64_t *drops_seen;	/* per map, drops already reported */
	uint64_t lost_seen;
	int *stack_fds;		/* per kernel stack map (c->stack_depths) */
	struct ksyms *ksyms;	/* /proc/kallsyms, read when first needed */
	bool ksyms_tried;
	int useen_fd;		/* ustack/usym: processes BPF has seen */
	struct usyms *usyms;	/* ustack/usym: processes' mappings */
	struct usernames *usernames;	/* username: uids looked up */
	FILE *flame;		/* --flamegraph: the SVG written at exit */
};

/* loader.c */
void tracer_init(struct tracer *t, struct compiler *c, FILE *out);
/* Create maps, relocate and load every program: 0 or -errno (after
 * printing what went wrong). */
int ld_load(struct tracer *t);
void tracer_close(struct tracer *t);
/* Start making and mapping the ring buffer, sized for the probes of
 * AST, in a second thread; ld_load() waits for it.  Call it as soon as
 * a script that will run is parsed. */
void ld_ringbuf_start(struct tracer *t, const struct program *ast);
/* Wait until the ring buffer is mapped for reading: 0 or -errno. */
int ld_ringbuf_ready(struct tracer *t);
/* One sentence on why BPF is unusable for errno ERR. */
const char *ld_explain(int err);

/* attach.c */
int at_attach(struct tracer *t, struct prog_spec *ps);
/* Stop every program (quick); then close the perf events links held
 * (slow: tracer_close() does it, after the output). */
void at_detach_all(struct tracer *t);
void at_close_events(struct tracer *t);

/* runtime.c */
int rt_run(struct tracer *t);
/* The reader of t->ringbuf_fd, for its events; NULL and errno. */
struct ring_buffer *rt_ringbuf_open(struct tracer *t);
/* -c: fork CMD (through /bin/sh), held until rt_run releases it. */
int rt_spawn(struct tracer *t, const char *cmd);
void rt_install_signals(void);

/* print.c */
void pr_map(struct tracer *t, struct mapinfo *m, uint64_t top, uint64_t div);
void pr_all_maps(struct tracer *t);
void pr_value(struct tracer *t, const struct type *ty, const void *data);
int pr_clear(struct tracer *t, struct mapinfo *m);
int pr_zero(struct tracer *t, struct mapinfo *m);
/* A map that folds (-f folded, --flamegraph): keyed by a stack, alone
 * or in a tuple, with count(), sum() or integer values. */
bool pr_foldable(const struct mapinfo *m);
/* Map M's entries as stacks into F, merged (fold_merge); TOP and DIV
 * as print(@m, top, div).  Returns the number of entries left out for
 * a negative value. */
int pr_fold(struct tracer *t, struct mapinfo *m, uint64_t top, uint64_t div,
	    struct fold *f);
/* --flamegraph: an SVG of every map that folds, onto F.  Returns 0 or
 * -errno. */
int pr_flamegraph(struct tracer *t, FILE *f);

/* stacks.c: stacks (TY_KSTACK) and symbols (TY_KSYM, TY_USYM) as text,
 * symbolized from /proc/kallsyms (read on first use) or the processes'
 * mappings (usyms.c).  INDENT is the spaces before each frame in mode
 * bpftrace: 4 in map keys, 8 elsewhere, as bpftrace 0.17 prints them. */
void stk_print(struct tracer *t, FILE *f, const struct type *ty,
	       const void *data, int indent);
/* The same into a malloc'd string (*LEN bytes, NUL-terminated). */
char *stk_string(struct tracer *t, const struct type *ty, const void *data,
		 int indent, size_t *len);
/* The frames of stack DATA appended to FF, outermost first, for a
 * folded line: function names without offsets, each followed by
 * SUFFIX (NULL: none).  Returns how many (0: no stack). */
int stk_frames(struct tracer *t, const struct type *ty, const void *data,
	       struct fold_frames *ff, const char *suffix);
void stk_free(struct tracer *t);

/* users.c: the name of user UID (username values), looked up once per
 * uid and kept until usr_free(); its number when the password database
 * has no entry. */
const char *usr_name(struct tracer *t, uint32_t uid);
void usr_free(struct tracer *t);

#endif
