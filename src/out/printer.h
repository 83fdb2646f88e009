/* printer.h - the output side: where sonde writes and how, and what it
 * needs to turn what BPF recorded into text (the maps' fds, the stack
 * maps, symbols, user names).  run/'s tracer holds one struct printer
 * and calls these; out/ never sees the tracer, nor the AST, only the
 * specs of base/compiler.h. */
#ifndef SONDE_PRINTER_H
#define SONDE_PRINTER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/compiler.h"
#include "out/dtfmt.h"

struct ksyms;
struct usyms;
struct usernames;
struct cgroups;
struct fold;
struct fold_frames;

/* -f: what the output is. */
enum out_format {
	OUT_TEXT,	/* bpftrace's text */
	OUT_JSON,	/* newline-delimited JSON messages (json.c) */
	OUT_FOLDED,	/* stack maps as folded lines (fold.c), the rest
			 * as text; maps that do not fold go to stderr */
};

struct printer {
	struct compiler *c;	/* maps, events, BPFTRACE_STRLEN */
	FILE *out;
	enum out_format format;
	/* sonde dtrace: DTrace's output (dtfmt.c); dt_testing: without
	 * the CPU and ID columns (_DTRACE_TESTING), dt_quiet: -q */
	bool dtrace, dt_testing, dt_quiet;
	bool dt_header;		/* the CPU ID FUNCTION:NAME line is out */
	struct dtf_sort dt_sort;	/* -x aggsortkey, aggsortrev, ... */
	bool *dt_printed;	/* per map: printa() printed it (not at exit) */
	uint64_t *dt_normal;	/* per map: normalize()'s divisor (0: 1) */
	bool color;		/* hist bars in colour: a terminal, no NO_COLOR */
	int ncpus_possible;	/* per-CPU map values */
	int64_t mono_to_epoch;	/* add to a CLOCK_MONOTONIC ns for epoch ns */
	const int *stack_fds;	/* per kernel stack map (c->stack_depths) */
	bool debug_info;	/* config show_debug_info: user frames with
				 * their source line, inlined functions */
	const int *dwstack_fds;	/* per depth too: stacks walked by the CFI
				 * (ids with bit 31 set), or NULL */
	struct ksyms *ksyms;	/* /proc/kallsyms, read when first needed */
	bool ksyms_tried;
	struct usyms *usyms;	/* ustack/usym: processes' mappings */
	struct usernames *usernames;	/* username: uids looked up */
	struct cgroups *cgroups;	/* cgroup_path(): hierarchies, paths */
	const char *prom_prefix;	/* --metrics' names: NULL for "sonde" */
};

/* Free what the printer looked up (symbols, user names). */
void pr_free(struct printer *pr);

/* typed.c: one value of type TY at P, as text (INDENT: 8 for a
 * value, 4 inside a map key) and as JSON; the integer of TY's width at
 * P, extended to 64 bits. */
void pr_text_typed(struct printer *pr, FILE *f, const struct type *ty,
		   const uint8_t *p, int indent);
void pr_json_typed(struct printer *pr, FILE *f, const struct type *ty,
		   const uint8_t *p);
int64_t pr_int_at(const struct type *ty, const uint8_t *p);

/* print.c */
void pr_map(struct printer *pr, struct mapinfo *m, uint64_t top, uint64_t div);
/* One key's tseries(): the buckets of NCPU CPUs at VALS (tseries.c). */
void pr_tseries(FILE *f, const struct mapinfo *m, const uint8_t *vals,
		int ncpu);
/* The same as a JSON array of {"interval_start", "value"}. */
void pr_tseries_json(FILE *f, const struct mapinfo *m, const uint8_t *vals,
		     int ncpu);
/* Every map, at exit: in text after two newlines, as bpftrace. */
void pr_all_maps(struct printer *pr);
/* One entry of a map as print.c reads it (per-CPU values merged): its
 * key bytes, count/sum/min/max in V, avg's COUNT and TOTAL, a hist's or
 * lhist's NB buckets in B (valid during the call), a plain value's bytes
 * in RAW. */
struct pr_entry {
	const uint8_t *key;
	int64_t v;
	uint64_t count;
	int64_t total;
	uint64_t sq[2];		/* stddev: the sum of squares, low first */
	const uint8_t *raw;
	const uint64_t *b;
	int nb;
	int64_t hsum;		/* hist/lhist with --metrics: their sum */
};
/* Call FN with each entry of map M, in no order; -1 if it cannot be
 * read. */
int pr_map_entries(struct printer *pr, struct mapinfo *m,
		   void (*fn)(void *arg, const struct pr_entry *e), void *arg);
/* prom.c: every map that holds numbers, as Prometheus metrics (text
 * format 0.0.4) onto F (--metrics). */
void pr_prometheus(struct printer *pr, FILE *f);
/* dprint.c: D's aggregations at exit, DTrace's way (D's variables,
 * maps without '@', never print). */
void pr_dt_all_aggs(struct printer *pr);
/* trace(x): X, of type TY at DATA, DTrace's way (its widths when not
 * quiet). */
/* D's setopt(name[, value]) record E/REC: the options of the output
 * (aggsortkey, aggsortrev, aggsortpos, aggsortkeypos, quiet) change
 * from then on; others are said on stderr as dtrace says them. */
void pr_dt_setopt(struct printer *pr, const struct event_spec *e,
		  const uint8_t *rec);
void pr_dt_trace(struct printer *pr, const struct type *ty, int size,
		 const void *data);
/* normalize(@a, N): @a's values print divided by N (1: as they are). */
void pr_dt_normalize(struct printer *pr, const struct mapinfo *m,
		     uint64_t n);
/* printa(@a): the aggregation now, DTrace's way. */
void pr_dt_printa(struct printer *pr, struct mapinfo *m, const char *fmt);
/* D's trunc(@a, N): only the N rows of largest value stay (N < 0: the
 * -N smallest), the others are removed from the map. */
void pr_dt_trunc(struct printer *pr, struct mapinfo *m, int64_t n);
/* printa(FMT, @a, @b, ...): the N aggregations' rows joined by key. */
void pr_dt_printa_join(struct printer *pr, struct mapinfo **maps, int n,
		       const char *fmt);
/* Every map, sorted by name (SIGUSR1 prints them so). */
void pr_maps(struct printer *pr);
void pr_value(struct printer *pr, const struct type *ty, const void *data);
/* A value as print() writes it in text, onto F (no newline). */
void pr_typed(struct printer *pr, FILE *f, const struct type *ty,
	      const void *data);
/* A strftime() value at P ({ns since boot, format index}) as the text
 * of its format, into BUF (CAP bytes); returns its length. */
size_t pr_tstamp(struct printer *pr, char *buf, size_t cap, const void *p);
int pr_clear(struct printer *pr, struct mapinfo *m);
int pr_zero(struct printer *pr, struct mapinfo *m);
/* A map that folds (-f folded, --flamegraph): keyed by a stack, alone
 * or in a tuple, with count(), sum() or integer values. */
bool pr_foldable(const struct mapinfo *m);
/* Map M's entries as stacks into F, merged (fold_merge); TOP and DIV
 * as print(@m, top, div).  Returns the number of entries left out for
 * a negative value. */
int pr_fold(struct printer *pr, struct mapinfo *m, uint64_t top,
	    uint64_t div, struct fold *f);
/* --flamegraph: an SVG of every map that folds, onto F.  Returns 0 or
 * -errno. */
int pr_flamegraph(struct printer *pr, FILE *f);

/* value.c: the word integer V of type TY prints as in 0.26 (true,
 * false, an enumerator's name), or NULL for its number. */
const char *pr_symbol(const struct printer *pr, const struct type *ty,
		      int64_t v);
/* Integer V as a JSON number; in 0.26 as a string when a double
 * cannot hold it exactly (beyond 2^53), as bpftrace 0.26 writes it. */
void pr_json_int(const struct printer *pr, FILE *f, int64_t v, bool sgn);
/* A map key's text S (*LEN bytes) as a JSON key in 0.26: blanks cut. */
void pr_json_key_text(const struct printer *pr, char *s, size_t *len);

/* events.c: a record of event E (printf, print, clear, zero, time,
 * join) written as its kind says, in text or JSON.  system() and exit()
 * are actions, run/'s. */
void pr_event(struct printer *pr, const struct event_spec *e,
	      const uint8_t *rec);
/* printf's arguments from record REC, formatted onto F (also the
 * command of system()). */
void pr_format_record(struct printer *pr, FILE *f, const struct event_spec *e,
		      const uint8_t *rec);

/* stacks.c: stacks (TY_KSTACK) and symbols (TY_KSYM, TY_USYM) as text,
 * symbolized from /proc/kallsyms (read on first use) or the processes'
 * mappings (usyms.c).  INDENT is the spaces before each frame in mode
 * bpftrace: 4 in map keys, 8 elsewhere, as bpftrace 0.17 prints them. */
void stk_print(struct printer *pr, FILE *f, const struct type *ty,
	       const void *data, int indent);
/* The same into a malloc'd string (*LEN bytes, NUL-terminated). */
char *stk_string(struct printer *pr, const struct type *ty, const void *data,
		 int indent, size_t *len);
/* The frames of stack DATA appended to FF, outermost first, for a
 * folded line: function names without offsets, each followed by
 * SUFFIX (NULL: none).  Returns how many (0: no stack). */
int stk_frames(struct printer *pr, const struct type *ty, const void *data,
	       struct fold_frames *ff, const char *suffix);
void stk_free(struct printer *pr);
/* Kernel address ADDR as D's %a prints it, malloc'd: "vmlinux`sym",
 * "vmlinux`sym+0x10", or "0x..." where no symbol holds it. */
char *stk_dt_kaddr(struct printer *pr, uint64_t addr);

/* users.c: the name of user UID (username values), looked up once per
 * uid and kept until usr_free(); its number when the password database
 * has no entry. */
const char *usr_name(struct printer *pr, uint32_t uid);
void usr_free(struct printer *pr);

/* cgroups.c: the text of a cgroup_path() value, cgroup ID in the
 * hierarchies filter FILTER (its index in compiler.cgfilters) matches:
 * "unified:/user.slice,cpu:/"; kept until cgr_free(). */
const char *cgr_path(struct printer *pr, uint64_t id, uint64_t filter);
void cgr_free(struct printer *pr);

#endif
