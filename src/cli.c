/* cli.c - sonde's own command line (bpftrace's options) into struct
 * options (options.h): main.c's for a run here, serve.c's for a run a
 * user asked the service for. */
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
#include "dcli.h"
#include "options.h"
#include "serve.h"
#include "bpf/asm.h"
#include "catalog/cfi.h"
#include "catalog/info.h"
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
"    sonde serve [--socket PATH] [--policy FILE] [--audit-file FILE]\n"
"                      run scripts for users who cannot load BPF (sonde-serve(8))\n"
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
"      --dwarf-pid PID  load the unwind tables of process PID at start\n"
"                    (ustack, dw_ustack; other processes' load at their\n"
"                    first stack)\n"
"  -o FILE           write the output to FILE\n"
"  -q                quiet: no 'Attaching N probes...'\n"
"  -f text|json|folded  output format: bpftrace's text (default), one JSON\n"
"                    message per line (as bpftrace's -f json), or the maps\n"
"                    keyed by a stack as folded lines for flame graph tools\n"
"      --flamegraph FILE.svg  at exit, write an interactive SVG flame graph\n"
"                    of every map keyed by a stack\n"
"      --connect PATH  run through the sonde serve listening at PATH (without\n"
"                    privileges, sonde uses /run/sonde.sock when it is there)\n"
"      --metrics [HOST:]PORT  while it runs, serve the maps over HTTP at\n"
"                    /metrics for Prometheus (host 127.0.0.1 unless given)\n"
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
"      --no-feature kprobe_multi,uprobe_multi,syscall_mux,tracepoint_raw\n"
"                    attach those wildcards one probe at a time\n"
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
"      --dump-cfi FILE  print the unwind rows sonde compiles from FILE's call\n"
"                    frame information (.eh_frame, .debug_frame)\n"
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
"             BPFTRACE_STACK_MODE (bpftrace, perf, raw or build_id),\n"
"             BPFTRACE_NO_CPP_DEMANGLE (1: C++ names as in the symbol table),\n"
"             BPFTRACE_NO_USER_SYMBOLS (1: user addresses as numbers),\n"
"             BPFTRACE_BTF (a file of kernel BTF),\n"
"             BPFTRACE_KERNEL_SOURCE (kernel headers, for their constants)\n", f);
}


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

static int no_feature(struct options *o, const char *arg);
static void version(const struct options *o);

/* The name sonde runs as: installed or linked as bpftrace, it says the
 * bpftrace version it speaks (scripts and tools test it). */
static const char *progname = "sonde";


enum { OPT_DUMP = 256, OPT_INFO, OPT_DRY_RUN, OPT_UNSAFE, OPT_FLAMEGRAPH,
       OPT_INCLUDE, OPT_USDT_FILE, OPT_BTF, OPT_RINGBUF, OPT_NO_WARNINGS,
       OPT_DIALECT, OPT_PROBE_FILTER, OPT_NO_FEATURE, OPT_TEST,
       OPT_BENCH, OPT_MODE, OPT_METRICS, OPT_DUMP_CFI,
       OPT_DWARF_PID };

static const struct option longopts[] = {
	{ "dump", required_argument, NULL, OPT_DUMP },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "unsafe", no_argument, NULL, OPT_UNSAFE },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "metrics", required_argument, NULL, OPT_METRICS },
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
	{ "dump-cfi", required_argument, NULL, OPT_DUMP_CFI },
	{ "dwarf-pid", required_argument, NULL, OPT_DWARF_PID },
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
		else if (n == 11 && !strncmp(p, "syscall_mux", n))
			o->no_syscall_mux = true;	/* sonde's own */
		else if (n == 14 && !strncmp(p, "tracepoint_raw", n))
			o->no_tracepoint_raw = true;	/* sonde's own */
		else {
			fprintf(stderr, "sonde: --no-feature: '%.*s' is not one of kprobe_multi, uprobe_multi, kprobe_session, syscall_mux, tracepoint_raw\n",
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

/* --dump-cfi FILE: the rows the stack walker follows in FILE (tests
 * compare them with readelf's); the exit status. */
static int dump_cfi(const char *path)
{
	struct cfi_table t;
	int rc = cfi_load(path, &t);

	if (rc) {
		fprintf(stderr, "sonde: --dump-cfi %s: %s\n", path,
			rc == -ENODATA ? "no call frame information" :
			rc == -ENOEXEC ? "not an ELF file" : strerror(-rc));
		return 1;
	}
	printf("%s: %zu rows from %s\n", path, t.n, t.section);
	cfi_print(stdout, &t);
	cfi_free(&t);
	return 0;
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

static int opt_pid(const char *opt, const char *arg, int *pid)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v <= 0 || v > 0x3fffffff) {
		fprintf(stderr, "sonde: %s takes a process id, not '%s'\n", opt,
			arg);
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
	case 'p': return opt_pid("-p", arg, &o->target_pid);
	case 'c': o->command = arg; return 0;
	case 'o': o->outpath = arg; return 0;
	case 'q': o->quiet = true; return 0;
	case 'k': o->check_helpers++; return 0;
	case 'v': o->verbose = true; return 0;
	case 'd': o->dump = "bpf"; return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case OPT_UNSAFE: o->unsafe = true; return 0;
	case OPT_FLAMEGRAPH: o->flamepath = arg; return 0;
	case OPT_METRICS: o->metrics = arg; return 0;
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
	case OPT_DUMP_CFI: return 1 + dump_cfi(arg);
	case OPT_DWARF_PID:
		o->dwarf_pids = xrealloc(o->dwarf_pids, sizeof(int) *
					 (size_t)(o->ndwarf_pids + 1));
		return opt_pid("--dwarf-pid", arg,
			       &o->dwarf_pids[o->ndwarf_pids++]);
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

int cli_parse(int argc, char **argv, struct options *o)
{
	const char *slash = strrchr(argv[0], '/');

	progname = slash ? slash + 1 : argv[0];
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
