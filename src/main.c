/* main.c - the command line: options, then the compile (compile.c) and
 * the run (run/).  Only here do errors become messages and exit
 * statuses. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "compile.h"
#include "config.h"
#include "bpf/asm.h"
#include "catalog/info.h"
#include "dtrace/dtrace.h"
#include "lang/parse.h"
#include "probe/probe.h"
#include "run/tracer.h"

static void usage(FILE *f)
{
	fputs(
"USAGE:\n"
"    sonde [options] FILE [ARG...]\n"
"    sonde [options] -e 'PROGRAM' [ARG...]\n"
"    sonde dtrace -h|-G -s PROVIDER.d [-o OUTPUT] (see sonde dtrace --help)\n"
"\n"
"Compile a bpftrace-language script to eBPF, run it, print what it collects.\n"
"FILE may be - for standard input.  ARGs are the positional parameters $1..;\n"
"after --, --NAME=VALUE and --NAME are named ones, read by getopt().\n"
"\n"
"options:\n"
"  -e PROGRAM        the program text\n"
"  -l [PATTERN]      list the probes matching PATTERN (with -v, their\n"
"                    arguments); with a program, the probes it attaches\n"
"  -p PID            trace only process PID; exit when it exits\n"
"  -c 'CMD'          run CMD, trace while it runs, exit when it exits\n"
"                    (cpid is its pid)\n"
"  -o FILE           write the output to FILE\n"
"  -q                quiet: no 'Attaching N probes...'\n"
"  -f text|json|folded  output format: bpftrace's text (default), one JSON\n"
"                    message per line (as bpftrace's -f json), or the maps\n"
"                    keyed by a stack as folded lines for flame graph tools\n"
"      --flamegraph FILE.svg  at exit, write an interactive SVG flame graph\n"
"                    of every map keyed by a stack\n"
"  -B line|full|none output buffering: flushed per line, only when the\n"
"                    buffer fills, or unbuffered (default: after each\n"
"                    batch of events)\n"
"  -k                report each failed helper call (map update or delete,\n"
"                    signal(), stacks) with its place in the script\n"
"  -kk               also the memory reads that fail (str(), args, ...)\n"
"  -I DIR            search DIR for #include files (after the including\n"
"                    file's directory for #include \"FILE\")\n"
"      --include FILE  read FILE before the script, as #include \"FILE\"\n"
"  -v                verbose: say what is loaded and attached\n"
"      --no-warnings don't print warnings\n"
"      --no-feature kprobe_multi,uprobe_multi  attach those wildcards one\n"
"                    probe at a time\n"
"      --probe-filter REGEX  attach only the probes whose names match\n"
"                    (and BEGIN, END)\n"
"      --dialect=0.17|0.26  where bpftrace 0.17 and today's bpftrace differ\n"
"                    (docs/language.md), behave as this one (default 0.26;\n"
"                    environment SONDE_DIALECT)\n"
"      --test        run the script's test: probes (after BEGIN), say which\n"
"                    pass; exit status 1 if one fails (--mode=test)\n"
"      --bench       time the script's bench: probes, print a table of the\n"
"                    nanoseconds one run of each takes (--mode=bench)\n"
"  -d, --dump=bpf    print the BPF of each probe with its source lines; do not run\n"
"  -d STAGE[,STAGE]  print what a stage made, then run: ast, dis (also\n"
"                    codegen, codegen-opt, bpf: the BPF), verifier, libbpf, all\n"
"      --dump=ast    print the syntax tree with types; do not run\n"
"      --dry-run     load and attach every program, then exit without\n"
"                    running (with --dialect=0.17: without attaching)\n"
"      --info        print the kernel features sonde found\n"
"      --btf         accepted, as bpftrace's: the kernel's BTF is always used\n"
"      --usdt-file-activation  accepted, as bpftrace's: a usdt probe's\n"
"                    semaphore is set wherever the probe is attached (every\n"
"                    process running the file, or -p's or -c's)\n"
"      --ringbuf-size SIZE  the ring buffer's size (bytes, or with K, M, G;\n"
"                    rounded up to a power of two; default 16M, or 512K\n"
"                    per CPU, for kernel events; 256K for timers only)\n"
"      --unsafe      allow system(), signal() and override(), which change\n"
"                    the system being traced\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"environment: BPFTRACE_STRLEN (string size, default 64),\n"
"             BPFTRACE_MAP_KEYS_MAX (keys per map, default 4096),\n"
"             BPFTRACE_CAT_BYTES_MAX (cat()'s bytes of a file, default 10240),\n"
"             BPFTRACE_MAX_PROBES, BPFTRACE_MAX_BPF_PROGS (default 512 each),\n"
"             BPFTRACE_PERF_RB_PAGES (ring buffer pages per CPU),\n"
"             BPFTRACE_STACK_MODE (bpftrace, perf or raw),\n"
"             BPFTRACE_NO_CPP_DEMANGLE (1: C++ names as in the symbol table),\n"
"             BPFTRACE_NO_USER_SYMBOLS (1: user addresses as numbers),\n"
"             BPFTRACE_BTF (a file of kernel BTF),\n"
"             BPFTRACE_KERNEL_SOURCE (kernel headers, for their constants)\n", f);
}

/* bpftrace 0.26's -d STAGE: print what a stage made, then run. */
enum { D_AST = 1, D_BPF = 2, D_VERIFIER = 4, D_LIBBPF = 8 };

/* ARG as a comma-separated list of stages into *STAGES: 0, or -1 when
 * it is not one (then -d is 0.17's, and ARG something else). */
static int stage_list(const char *arg, unsigned *stages)
{
	static const struct { const char *name; unsigned bits; } names[] = {
		{ "ast", D_AST }, { "codegen", D_BPF }, { "codegen-opt", D_BPF },
		{ "dis", D_BPF }, { "bpf", D_BPF }, { "verifier", D_VERIFIER },
		{ "libbpf", D_LIBBPF },
		{ "all", D_AST | D_BPF | D_VERIFIER | D_LIBBPF },
	};
	unsigned bits = 0;
	const char *p = arg;

	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (strlen(names[i].name) == n &&
			    !strncmp(p, names[i].name, n))
				break;
		if (i == ARRAY_SIZE(names))
			return -1;
		bits |= names[i].bits;
		p += n + (p[n] == ',');
	}
	if (!bits)
		return -1;
	*stages |= bits;
	return 0;
}

struct options;
static int no_feature(struct options *o, const char *arg);
static void version(const struct options *o);

/* The name sonde runs as: installed or linked as bpftrace, it says the
 * bpftrace version it speaks (scripts and tools test it). */
static const char *progname = "sonde";

/* The command line, parsed. */
struct options {
	const char *prog_text, *file, *outpath, *dump, *flamepath, *command;
	bool quiet, verbose, dry_run, list, unsafe, no_warnings;
	const char *dialect;	/* --dialect, or NULL */
	unsigned stages;	/* -d STAGE,...: D_* */
	bool no_kprobe_multi, no_uprobe_multi;	/* --no-feature */
	const char *probe_filter;	/* --probe-filter REGEX, or NULL */
	regex_t filter_re;
	enum run_mode mode;	/* --test, --bench */
	int check_helpers;
	long rb_bytes;		/* --ringbuf-size, or 0 */
	enum out_format format;
	int buffering;		/* -B: a setvbuf mode, or -1 for sonde's own */
	int target_pid;
	char **params;		/* positional parameters $1.. */
	int nparams;
	struct named_param *named;	/* after "--": --NAME[=VALUE] */
	int nnamed;
	const char **incdirs;	/* -I, --include: argc slots each */
	const char **includes;
	int nincdirs, nincludes;
};

enum { OPT_DUMP = 256, OPT_INFO, OPT_DRY_RUN, OPT_UNSAFE, OPT_FLAMEGRAPH,
       OPT_INCLUDE, OPT_USDT_FILE, OPT_BTF, OPT_RINGBUF, OPT_NO_WARNINGS,
       OPT_DIALECT, OPT_PROBE_FILTER, OPT_NO_FEATURE, OPT_TEST,
       OPT_BENCH, OPT_MODE };

static const struct option longopts[] = {
	{ "dump", required_argument, NULL, OPT_DUMP },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "unsafe", no_argument, NULL, OPT_UNSAFE },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "usdt-file-activation", no_argument, NULL, OPT_USDT_FILE },
	{ "btf", no_argument, NULL, OPT_BTF },
	{ "ringbuf-size", required_argument, NULL, OPT_RINGBUF },
	{ "no-warnings", no_argument, NULL, OPT_NO_WARNINGS },
	{ "dialect", required_argument, NULL, OPT_DIALECT },
	{ "probe-filter", required_argument, NULL, OPT_PROBE_FILTER },
	{ "no-feature", required_argument, NULL, OPT_NO_FEATURE },
	{ "test", no_argument, NULL, OPT_TEST },
	{ "bench", no_argument, NULL, OPT_BENCH },
	{ "mode", required_argument, NULL, OPT_MODE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* --no-feature F,F: bpftrace 0.26's way to keep sonde off the kernel
 * features it would use; 0, or -1 after saying what is not one. */
static int no_feature(struct options *o, const char *arg)
{
	const char *p = arg;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 12 && !strncmp(p, "kprobe_multi", n))
			o->no_kprobe_multi = true;
		else if (n == 12 && !strncmp(p, "uprobe_multi", n))
			o->no_uprobe_multi = true;
		else if (n == 14 && !strncmp(p, "kprobe_session", n))
			;	/* sonde does not use kprobe sessions yet */
		else {
			fprintf(stderr, "sonde: --no-feature: '%.*s' is not one of kprobe_multi, uprobe_multi, kprobe_session\n",
				(int)n, p);
			return -1;
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

static bool dialect_017(const struct options *o);

static void version(const struct options *o)
{
	if (strcmp(progname, "bpftrace"))
		printf("sonde %s\n", SONDE_VERSION);
	else
		printf("bpftrace v%s (sonde %s)\n",
		       dialect_017(o) ? "0.17.0" : "0.26.1", SONDE_VERSION);
}

static int env_int(const char *name, int def, int lo, int hi, int *out)
{
	const char *v = getenv(name);
	char *end;
	long n;

	*out = def;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < lo || n > hi) {
		fprintf(stderr, "sonde: %s=%s is not a number in %d..%d\n", name,
			v, lo, hi);
		return -1;
	}
	*out = (int)n;
	return 0;
}

/* VALUE as one of WORDS (NULL-terminated): its index, or -1 after a
 * message naming OPT. */
static int choose(const char *opt, const char *value, const char *const *words,
		  const char *expect)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(value, words[i]))
			return i;
	fprintf(stderr, "sonde: %s takes %s, not '%s'\n", opt, expect, value);
	return -1;
}

/* --ringbuf-size: bytes, with an optional K, M or G (powers of 1024). */
static int opt_size(const char *arg, long *bytes)
{
	static const char units[] = "kmg";
	const char *u;
	char *end;
	int shift = 0;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end && (u = strchr(units, *end | 0x20)) != NULL)
		shift = 10 * (int)(u - units + 1), end++;
	if (errno || end == arg || *end || v <= 0 || v > RB_SIZE_MAX >> shift) {
		fprintf(stderr, "sonde: --ringbuf-size takes a size from 1 to 1G (bytes, or with K, M or G), not '%s'\n",
			arg);
		return -1;
	}
	*bytes = v << shift;
	return 0;
}

static int opt_pid(const char *arg, int *pid)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v <= 0 || v > 0x3fffffff) {
		fprintf(stderr, "sonde: -p takes a process id, not '%s'\n", arg);
		return -1;
	}
	*pid = (int)v;
	return 0;
}

/* One option OPT with ARG into O: 0, -1 after a message, or 1 + the
 * exit status of an option that does all there is to do (-h, -V). */
static int option(struct options *o, int opt, const char *arg)
{
	static const char *const formats[] = { "text", "json", "folded", NULL };
	static const char *const buffers[] = { "line", "full", "none", NULL };
	static const int modes[] = { _IOLBF, _IOFBF, _IONBF };
	static const char *const dumps[] = { "ast", "bpf", NULL };
	static const char *const modes_run[] = { "test", "bench", NULL };
	int k;

	switch (opt) {
	case 'e': o->prog_text = arg; return 0;
	case 'l': o->list = true; return 0;
	case 'p': return opt_pid(arg, &o->target_pid);
	case 'c': o->command = arg; return 0;
	case 'o': o->outpath = arg; return 0;
	case 'q': o->quiet = true; return 0;
	case 'k': o->check_helpers++; return 0;
	case 'v': o->verbose = true; return 0;
	case 'd': o->dump = "bpf"; return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case OPT_UNSAFE: o->unsafe = true; return 0;
	case OPT_FLAMEGRAPH: o->flamepath = arg; return 0;
	case OPT_USDT_FILE: return 0;	/* see the usage */
	case OPT_BTF: return 0;		/* BTF is always used where there is one */
	case OPT_RINGBUF: return opt_size(arg, &o->rb_bytes);
	case OPT_NO_WARNINGS: o->no_warnings = true; return 0;
	case OPT_DIALECT: o->dialect = arg; return 0;
	case OPT_NO_FEATURE: return no_feature(o, arg);
	case OPT_PROBE_FILTER: {
		regex_t re;
		int rc = regcomp(&re, arg, REG_EXTENDED | REG_NOSUB);

		if (rc) {
			char msg[256];

			regerror(rc, &re, msg, sizeof(msg));
			fprintf(stderr, "sonde: --probe-filter '%s': %s\n", arg,
				msg);
			return -1;
		}
		if (o->probe_filter)
			regfree(&o->filter_re);	/* the last one counts */
		o->filter_re = re;
		o->probe_filter = arg;
		return 0;
	}
	case OPT_TEST: o->mode = RUN_TEST; return 0;
	case OPT_BENCH: o->mode = RUN_BENCH; return 0;
	case OPT_MODE:
		k = choose("--mode", arg, modes_run, "test or bench");
		o->mode = k == 1 ? RUN_BENCH : RUN_TEST;
		return k < 0 ? -1 : 0;
	case 'I': o->incdirs[o->nincdirs++] = arg; return 0;
	case OPT_INCLUDE: o->includes[o->nincludes++] = arg; return 0;
	case 'f':
		k = choose("-f", arg, formats, "text, json or folded");
		o->format = k < 0 ? OUT_TEXT : (enum out_format)k;
		return k < 0 ? -1 : 0;
	case 'B':
		k = choose("-B", arg, buffers, "line, full or none");
		o->buffering = k < 0 ? -1 : modes[k];
		return k < 0 ? -1 : 0;
	case OPT_DUMP:
		k = choose("--dump", arg, dumps, "ast or bpf");
		o->dump = k < 0 ? NULL : dumps[k];
		return k < 0 ? -1 : 0;
	case OPT_INFO: return 1 + (info_print(stdout) ? 1 : 0);
	case 'h': usage(stdout); return 1;
	case 'V': version(o); return 1;
	default: usage(stderr); return -1;
	}
}

/* "sonde -l FILE.bt" lists a script's probes; "sonde -l 'sched:*'" a
 * pattern.  A readable file is a script. */
static bool is_script(const char *arg)
{
	return !strcmp(arg, "-") || access(arg, R_OK) == 0;
}

/* Option OPT (getopt's optarg) into O, and -d's STAGE (0.26: print
 * and run) when one follows (-d alone is 0.17's dump); 0, or 1 + an
 * exit status. */
static int take_option(struct options *o, int opt, int argc, char **argv)
{
	int rc = option(o, opt, optarg);

	if (rc)
		return rc < 0 ? 2 : rc;
	if (opt == 'd' && optind < argc && !stage_list(argv[optind], &o->stages))
		optind++;
	return 0;
}

/* A negative number, a positional parameter rather than an option. */
static bool negative_number(const char *a)
{
	return a[0] == '-' && isdigit((unsigned char)a[1]);
}

/* Whether --dialect or SONDE_DIALECT asks for bpftrace 0.17's ways. */
static bool dialect_017(const struct options *o)
{
	const char *v = o->dialect ? o->dialect : getenv("SONDE_DIALECT");

	return v && !strcmp(v, "0.17");
}

/* A named program parameter after "--" (today's bpftrace: --NAME=VALUE
 * or --NAME, for getopt()): 0, or 1 + the exit status. */
static int named_param(struct options *o, char *a)
{
	char *eq = strchr(a, '=');
	struct named_param *np;

	if (eq)
		*eq = 0;
	np = &o->named[o->nnamed++];
	np->name = a + 2;
	np->value = eq ? eq + 1 : NULL;
	for (int k = 0; k < o->nnamed - 1; k++)
		if (!strcmp(o->named[k].name, np->name)) {
			fprintf(stderr, "sonde: program option --%s is given twice\n",
				np->name);
			return 3;
		}
	return 0;
}

/* What follows the script: positional parameters, and options too, as
 * bpftrace takes them there (sonde FILE -c CMD ARG); "--" ends the
 * options, and a negative number is a parameter.  After "--", today's
 * dialect takes --NAME[=VALUE] as a named parameter.  0, or 1 + an exit
 * status. */
static int after_script(int argc, char **argv, struct options *o,
			bool dashdash)
{
	bool named = !dialect_017(o);
	int opt, rc;

	o->params = xcalloc((size_t)argc + 1, sizeof(char *));
	o->named = xcalloc((size_t)argc + 1, sizeof(*o->named));
	while (optind < argc) {
		const char *a = argv[optind];

		if (dashdash || !strcmp(a, "--")) {
			optind += !dashdash;
			for (; optind < argc; optind++) {
				char *b = argv[optind];

				if (named && !strncmp(b, "--", 2) && b[2]) {
					rc = named_param(o, b);
					if (rc)
						return rc;
				} else {
					o->params[o->nparams++] = b;
				}
			}
			break;
		}
		if (a[0] != '-' || !a[1] || negative_number(a)) {
			o->params[o->nparams++] = argv[optind++];
			continue;
		}
		opt = getopt_long(argc, argv, "+e:o:qvdhVlkp:c:f:B:I:", longopts,
				  NULL);
		if (opt == -1)
			break;
		rc = take_option(o, opt, argc, argv);
		if (rc)
			return rc;
	}
	return 0;
}

/* argv into O: 0 to go on, or 1 + an exit status to leave with. */
static int parse_args(int argc, char **argv, struct options *o)
{
	bool dashdash;
	int opt, rc;

	memset(o, 0, sizeof(*o));
	o->buffering = -1;
	o->incdirs = xcalloc((size_t)argc, sizeof(char *));
	o->includes = xcalloc((size_t)argc, sizeof(char *));
	while ((opt = getopt_long(argc, argv, "+e:o:qvdhVlkp:c:f:B:I:", longopts,
				  NULL)) != -1) {
		rc = take_option(o, opt, argc, argv);
		if (rc)
			return rc;
	}
	dashdash = optind > 1 && !strcmp(argv[optind - 1], "--");
	if (o->stages && o->dump && !strcmp(o->dump, "bpf"))
		o->dump = NULL;
	if (o->list && !o->prog_text && (optind >= argc || !is_script(argv[optind]))) {
		const char *pattern = optind < argc ? argv[optind++] : NULL;

		/* options may follow the pattern, as bpftrace takes them:
		 * sonde -l 'usdt:*' -p PID */
		while ((opt = getopt_long(argc, argv, "+e:o:qvdhVlkp:c:f:B:I:",
					  longopts, NULL)) != -1) {
			rc = option(o, opt, optarg);
			if (rc)
				return rc < 0 ? 2 : rc;
		}
		if (optind < argc) {
			fprintf(stderr, "sonde: -l takes one pattern, not '%s' too\n",
				argv[optind]);
			return 2;
		}
		return 1 + (probe_list(pattern, o->verbose, o->target_pid) ? 1 : 0);
	}
	if (o->target_pid && o->command) {
		fputs("sonde: -p and -c cannot be used together\n", stderr);
		return 2;
	}
	if (o->target_pid && kill(o->target_pid, 0) != 0 && errno == ESRCH) {
		fprintf(stderr, "sonde: -p %d: no such process\n", o->target_pid);
		return 2;
	}
	if (!o->prog_text) {
		if (optind >= argc) {
			fputs("sonde: no program: give a FILE or -e 'PROGRAM'\n", stderr);
			usage(stderr);
			return 2;
		}
		o->file = argv[optind++];
	}
	return after_script(argc, argv, o, dashdash);
}

/* The script's text (malloc'd) and the name diagnostics give it. */
static int read_script(const struct options *o, char **src, size_t *len,
		       const char **name)
{
	int rc;

	if (o->prog_text) {
		*src = xstrdup(o->prog_text);
		*len = strlen(*src);
		*name = "-e";
		return 0;
	}
	/* one byte more than a script may have: parse_program reports a
	 * longer script, without reading all of it */
	rc = read_file_max(o->file, src, len, SCRIPT_MAX_SIZE + 1);
	if (rc) {
		fprintf(stderr, "sonde: cannot read %s: %s\n", o->file,
			strerror(-rc));
		return -1;
	}
	*name = strcmp(o->file, "-") ? o->file : "stdin";
	return 0;
}

/* --dialect, else SONDE_DIALECT, else today's bpftrace. */
static int set_dialect(struct compiler *c, const char *opt)
{
	const char *v = opt ? opt : getenv("SONDE_DIALECT");

	if (!v || !*v || !strcmp(v, "0.26")) {
		/* today's limits (0.17's are compiler_init's) */
		c->strlen_ = 1024;
		c->max_probes = 1024;
		c->max_progs = 1024;
		return 0;
	}
	if (!strcmp(v, "0.17")) {
		c->dialect_017 = true;
		return 0;
	}
	fprintf(stderr, "sonde: %s%s: the dialects are 0.17 and 0.26\n",
		opt ? "--dialect=" : "SONDE_DIALECT=", v);
	return -1;
}

static int setup_compiler(struct compiler *c, const struct options *o,
			  const char *name, const char *src, size_t len)
{
	compiler_init(c, name, src, len);
	/* the dialect's defaults first, then the environment's values */
	if (set_dialect(c, o->dialect) || config_env(c))
		return -1;
	c->verbose = o->verbose;
	c->target_pid = o->target_pid;
	c->has_command = o->command != NULL;
	c->command = o->command;
	c->unsafe = o->unsafe;
	if (o->probe_filter)
		c->probe_filter = &o->filter_re;
	/* as if the kernel had said no */
	c->kprobe_multi_checked |= o->no_kprobe_multi;
	c->uprobe_multi_checked |= o->no_uprobe_multi;
	c->run_mode = o->mode;
	c->check_helpers = o->check_helpers;
	c->diag.no_warnings = o->no_warnings;
	c->params = o->params;
	c->nparams = o->nparams;
	c->named = o->named;
	c->nnamed = o->nnamed;
	c->incdirs = o->incdirs;
	c->nincdirs = o->nincdirs;
	c->includes = o->includes;
	c->nincludes = o->nincludes;
	c->kernel_src = getenv("BPFTRACE_KERNEL_SOURCE");
	c->btf_path = getenv("BPFTRACE_BTF");
	if (c->btf_path && !*c->btf_path)
		c->btf_path = NULL;
	/* #include "FILE" looks beside the script first */
	if (o->file && strcmp(o->file, "-") && strrchr(o->file, '/'))
		c->srcdir = arena_strndup(&c->arena, o->file,
					  (size_t)(strrchr(o->file, '/') - o->file));
	if (c->srcdir && !*c->srcdir)
		c->srcdir = "/";
	return 0;
}

/* -f folded and --flamegraph need a map keyed by a stack. */
static int check_foldable(const struct options *o, const struct compiler *c)
{
	int n = 0;

	if (!o->flamepath && o->format != OUT_FOLDED)
		return 0;
	for (int i = 0; i < c->nmaps; i++)
		n += pr_foldable(c->maps[i]);
	if (!n && o->flamepath) {
		fputs("sonde: --flamegraph: no map is keyed by a stack (kstack, ustack) with count(), sum() or integer values\n",
		      stderr);
		return -1;
	}
	if (!n && !o->no_warnings)
		fputs("sonde: warning: -f folded: no map is keyed by a stack (kstack, ustack) with count(), sum() or integer values; maps print as text on stderr\n",
		      stderr);
	return 0;
}

/* The compile's end for what does not run: -l, --dump.  -1 to go on
 * and run, else the exit status. */
static int inspect(const struct options *o, struct compiler *c)
{
	if (o->list) {
		probe_list_script(c);
		return 0;
	}
	if (check_foldable(o, c))
		return 1;
	if (o->dump && !strcmp(o->dump, "ast")) {
		ast_dump(stdout, c->ast);
		return 0;
	}
	if (o->stages & D_AST)
		ast_dump(stdout, c->ast);
	if (compile(c, COMPILE_CODE))
		return 1;
	if (o->stages & D_BPF)
		for (int i = 0; i < c->nprogs; i++)
			asm_dump(stdout, c, &c->progs[i]);
	if (o->dump) {
		for (int i = 0; i < c->nprogs; i++)
			asm_dump(stdout, c, &c->progs[i]);
		return 0;
	}
	return -1;
}

static FILE *open_out(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		fprintf(stderr, "sonde: cannot write %s: %s\n", path,
			strerror(errno));
	return f;
}

/* -o, --flamegraph (opened now: a bad path fails before anything is
 * loaded), -f, -B and the rest the tracer needs. */
static int setup_tracer(const struct options *o, struct tracer *t)
{
	FILE *out;
	int no_usyms;

	if (env_int("BPFTRACE_NO_USER_SYMBOLS", 0, 0, 1, &no_usyms))
		return -1;
	t->max_probes = t->c->max_probes;
	t->max_progs = t->c->max_progs;
	t->no_demangle = !t->c->cpp_demangle;
	t->no_usyms = no_usyms;
	out = o->outpath ? open_out(o->outpath) : stdout;
	if (!out)
		return -1;
	if (o->flamepath && !o->dry_run && !(t->flame = open_out(o->flamepath))) {
		if (out != stdout)
			fclose(out);
		return -1;
	}
	if (o->buffering >= 0)
		setvbuf(out, NULL, o->buffering,
			o->buffering == _IONBF ? 0 : BUFSIZ);
	t->pr.out = out;
	t->pr.format = o->format;
	t->pr.color = o->format == OUT_TEXT && isatty(fileno(out)) &&
		      !getenv("NO_COLOR");
	t->buffered = o->buffering >= 0;
	t->quiet = o->quiet;
	t->verbose = o->verbose;
	t->no_warnings = o->no_warnings;
	t->target_pid = o->target_pid;
	return 0;
}

/* -d libbpf: everything libbpf says, debug messages too. */
static int libbpf_say(enum libbpf_print_level level, const char *fmt,
		      va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

/* Load, attach, run; the exit status. */
static int trace(const struct options *o, struct tracer *t)
{
	int rc = 1;

	if (setup_tracer(o, t)) {
		tracer_close(t);
		return 1;
	}
	if (!o->command || !rt_spawn(t, o->command)) {
		rt_install_signals();
		/* --dry-run: bpftrace 0.26 attaches, sonde's 0.17 dialect
		 * only loads (0.17 had no --dry-run) */
		t->dry_run = o->dry_run;
		t->debug_verifier = o->stages & D_VERIFIER;
		if (o->stages & D_LIBBPF)
			libbpf_set_print(libbpf_say);
		if (at_check_limits(t) == 0 && ld_load(t) == 0 &&
		    ((o->dry_run && t->c->dialect_017) || rt_run(t) == 0))
			rc = t->exit_code;
	}
	if (t->err)	/* before the slow close of the perf events */
		fprintf(stderr, "sonde: %s\n", t->err);
	tracer_close(t);
	if (t->pr.out != stdout)
		fclose(t->pr.out);
	if (t->flame && fclose(t->flame) && !rc) {
		fprintf(stderr, "sonde: cannot write %s: %s\n", o->flamepath,
			strerror(errno));
		rc = 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	struct options o;
	struct compiler c;
	struct tracer t;
	const char *name;
	bool tracing = false;
	char *src = NULL;
	size_t len;
	int rc;

	/* sonde dtrace -h|-G -s provider.d ...: the build-time tool, also
	 * when sonde is installed (linked) as dtrace */
	if (argc > 1 && !strcmp(argv[1], "dtrace"))
		return dtrace_main(argc - 1, argv + 1);
	if (!strcmp(base, "dtrace"))
		return dtrace_main(argc, argv);
	progname = base;
	rc = parse_args(argc, argv, &o);
	if (rc || read_script(&o, &src, &len, &name)) {
		free(o.incdirs);
		free(o.includes);
		free(o.params);
		if (o.probe_filter)
			regfree(&o.filter_re);
		free(o.named);
		return rc ? rc - 1 : 1;
	}
	rc = 1;
	if (setup_compiler(&c, &o, name, src, len) || compile(&c, COMPILE_PARSE))
		goto out;
	/* A script that will run has its ring buffer made while it
	 * compiles: that is most of its start. */
	if (!o.list && !o.dump) {
		tracer_init(&t, &c, stdout);
		rt_ringbuf_start(&t, probe_quiet(c.ast) && !o.check_helpers,
				 o.rb_bytes, c.rb_pages);
		tracing = true;
	}
	if (compile(&c, COMPILE_CHECK))
		goto out;
	rc = inspect(&o, &c);
	if (rc < 0) {
		tracing = false;
		rc = trace(&o, &t);
	}
out:
	if (tracing)
		tracer_close(&t);
	compiler_free(&c);
	free(src);
	free(o.incdirs);
	free(o.includes);
	free(o.params);
	if (o.probe_filter)
		regfree(&o.filter_re);
	free(o.named);
	return rc;
}
