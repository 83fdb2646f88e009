/* options.h - what a command line asks for: sonde's own (main.c) and
 * dtrace(1)'s (dcli.c) parse their argv into one struct options, and
 * session_run() does the rest the same way for both. */
#ifndef SONDE_OPTIONS_H
#define SONDE_OPTIONS_H

#include <regex.h>
#include <stdbool.h>

#include "base/compiler.h"
#include "out/printer.h"
#include "probe/probe.h"

/* The command line, parsed. */
struct options {
	const char *prog_text, *file, *outpath, *dump, *flamepath, *command;
	bool quiet, verbose, dry_run, list, unsafe, no_warnings;
	const char *dialect;	/* --dialect, or NULL */
	const char *metrics;	/* --metrics ADDR, or NULL */
	const char *metrics_prefix;	/* its names' prefix: NULL for
					 * "sonde" (serve's metrics.d) */
	/* sonde serve runs this command line for a user (serve.h): their
	 * identity and policy, or NULL */
	const struct serve_session *serve;
	unsigned stages;	/* -d STAGE,...: D_* */
	bool no_kprobe_multi, no_uprobe_multi;	/* --no-feature */
	bool no_syscall_mux, no_tracepoint_raw;
	const char *probe_filter;	/* --probe-filter REGEX, or NULL */
	regex_t filter_re;
	enum run_mode mode;	/* --test, --bench */
	int check_helpers;
	long rb_bytes;		/* --ringbuf-size, or 0 */
	enum out_format format;
	int buffering;		/* -B: a setvbuf mode, or -1 for sonde's own */
	int target_pid;
	int *dwarf_pids;	/* --dwarf-pid PID (repeatable) */
	int ndwarf_pids;
	char **params;		/* positional parameters $1.. */
	int nparams;
	struct named_param *named;	/* after "--": --NAME[=VALUE] */
	int nnamed;
	const char **incdirs;	/* -I, --include: argc slots each */
	const char **includes;
	int nincdirs, nincludes;
	/* sonde dtrace (src/dcli.c): the script is D, printed DTrace's way */
	bool lang_d;
	bool errtags;		/* -x errtags: [D_TAG] in DTrace's message */
	bool dt_testing;	/* _DTRACE_TESTING: no CPU and ID columns */
	const char *dt_what;	/* "script" or "description" (messages) */
	size_t prog_len;	/* prog_text's length, when not 0 */
	const char *prog_name;	/* what messages call prog_text (not -e) */
	bool zero_ok;		/* -Z: a description may match no probe */
	bool dt_aggsortkey;	/* -x aggsortkey: rows by key first */
	bool dt_aggsortrev;	/* -x aggsortrev: the other way round */
	int dt_aggsortpos;	/* -x aggsortpos=N: by aggregation N first */
	int dt_aggsortkeypos;	/* -x aggsortkeypos=N: by key N first */
	bool dt_defaultargs;	/* -x defaultargs */
	bool dt_argref;		/* -x argref: macro arguments may go unused */
	bool dt_droptags;	/* -x droptags: [DTRACEDROP_X] before drops */
	int dt_strsize;		/* -x strsize=N (0: not given) */
	const char **dopts;	/* -x NAME[=VALUE], in order */
	int ndopts;
	int nspec;		/* -x nspec: speculations, 0 the default 1 */
	long scratchsize;	/* -x scratchsize: D's alloca() memory per
				 * clause, 0 the default 256 */
	long specsize;		/* -x specsize: bytes kept per
				 * speculation, 0 the default */
	long bufsize, aggsize;	/* -x bufsize, aggsize; -1 not given */
	bool specsize_set;	/* -x specsize given (0 too) */
	bool dt_fill;		/* -x bufpolicy=fill */
	char *defines;		/* -D NAME[=VALUE] and -U NAME, as the
				 * #define and #undef lines they stand for */
};

/* bpftrace 0.26's -d STAGE: print what a stage made, then run. */
enum { D_AST = 1, D_BPF = 2, D_VERIFIER = 4, D_LIBBPF = 8 };

/* main.c: argv into O: 0 to go on, or 1 + an exit status to leave
 * with (-h, -V, -l PATTERN do all there is to do). */
int cli_parse(int argc, char **argv, struct options *o);
/* Read the script, compile it, run it (or list, dump it): the exit
 * status.  Frees what O holds. */
int session_run(struct options *o);
/* D: -x or #pragma D option ARG if it is nspec=N, specsize=SIZE,
 * bufsize=SIZE, aggsize=SIZE or scratchsize=SIZE (k,
 * m, g, t suffixes): 1 taken, 0 another option, -1 a bad value (said,
 * in dtrace's words). */
int options_d_spec(struct options *o, const char *arg);
/* Free what the parsers of argv allocated in O. */
void options_free(struct options *o);

#endif
