/* main.c - the command line: options, the compile, the run.  Only here
 * do errors become exit statuses. */
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compiler.h"
#include "bpf/ir.h"
#include "lang/parse.h"
#include "sema/sema.h"
#include "run/tracer.h"
#include "catalog/info.h"
#include "probe/list.h"
#include "dtrace/dtrace.h"


static void usage(FILE *f)
{
	fputs(
"usage: sonde [options] FILE [ARG...]\n"
"       sonde [options] -e 'PROGRAM' [ARG...]\n"
"       sonde dtrace -h|-G -s PROVIDER.d [-o OUTPUT] (see sonde dtrace --help)\n"
"\n"
"Compile a bpftrace-language script to eBPF, run it, print what it collects.\n"
"FILE may be - for standard input.  ARGs are the positional parameters $1..\n"
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
"  -k                count the memory reads (str(), args, struct members)\n"
"                    that fail, and say at exit where and how often\n"
"  -v                verbose: say what is loaded and attached\n"
"  -d, --dump=bpf    print the BPF of each probe with its source lines; do not run\n"
"      --dump=ast    print the syntax tree with types; do not run\n"
"      --dry-run     load every program into the kernel (the verifier checks\n"
"                    them), then exit without attaching or running\n"
"      --info        print the kernel features sonde found\n"
"      --unsafe      allow system(), signal() and override(), which change\n"
"                    the system being traced\n"
"  -h, --help        this help\n"
"  -V, --version     the version\n"
"\n"
"environment: BPFTRACE_STRLEN (string size, default 64),\n"
"             BPFTRACE_MAP_KEYS_MAX (keys per map, default 4096)\n", f);
}

static int env_int(const char *name, int def, int lo, int hi)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return def;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < lo || n > hi) {
		fprintf(stderr, "sonde: %s=%s is not a number in %d..%d\n", name,
			v, lo, hi);
		exit(1);
	}
	return (int)n;
}

enum { OPT_DUMP = 256, OPT_INFO, OPT_DRY_RUN, OPT_UNSAFE, OPT_FLAMEGRAPH };

/* "sonde -l FILE.bt" lists a script's probes; "sonde -l 'sched:*'" a
 * pattern.  A readable file is a script. */
static bool is_script(const char *arg)
{
	return !strcmp(arg, "-") || access(arg, R_OK) == 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dump", required_argument, NULL, OPT_DUMP },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "unsafe", no_argument, NULL, OPT_UNSAFE },
		{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog_text = NULL, *file = NULL, *outpath = NULL;
	const char *dump = NULL, *flamepath = NULL;
	bool quiet = false, verbose = false, dry_run = false, list = false;
	bool unsafe = false, check_reads = false, tracing = false;
	enum out_format format = OUT_TEXT;
	int buffering = -1;	/* -B: a setvbuf mode, or -1 for sonde's own */
	const char *command = NULL;
	int target_pid = 0;
	char *src = NULL;
	size_t srclen;
	struct compiler c;
	struct tracer t;
	FILE *out = stdout, *flame = NULL;
	int opt, rc;

	/* sonde dtrace -h|-G -s provider.d ...: the build-time tool, also
	 * when sonde is installed (linked) as dtrace */
	if (argc > 1 && !strcmp(argv[1], "dtrace"))
		return dtrace_main(argc - 1, argv + 1);
	if (!strcmp(strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0],
		    "dtrace"))
		return dtrace_main(argc, argv);
	while ((opt = getopt_long(argc, argv, "+e:o:qvdhVlkp:c:f:B:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e': prog_text = optarg; break;
		case 'l': list = true; break;
		case 'p': {
			char *end;
			long v = strtol(optarg, &end, 10);

			if (*end || v <= 0 || v > 0x3fffffff) {
				fprintf(stderr, "sonde: -p takes a process id, not '%s'\n",
					optarg);
				return 1;
			}
			target_pid = (int)v;
			break;
		}
		case 'c': command = optarg; break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = true; break;
		case 'k': check_reads = true; break;
		case 'f':
			if (!strcmp(optarg, "text")) {
				format = OUT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				format = OUT_JSON;
			} else if (!strcmp(optarg, "folded")) {
				format = OUT_FOLDED;
			} else {
				fprintf(stderr, "sonde: -f takes text, json or folded, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'B':
			if (!strcmp(optarg, "line")) {
				buffering = _IOLBF;
			} else if (!strcmp(optarg, "full")) {
				buffering = _IOFBF;
			} else if (!strcmp(optarg, "none")) {
				buffering = _IONBF;
			} else {
				fprintf(stderr, "sonde: -B takes line, full or none, not '%s'\n",
					optarg);
				return 1;
			}
			break;
		case 'v': verbose = true; break;
		case 'd': dump = "bpf"; break;
		case OPT_DUMP:
			if (strcmp(optarg, "bpf") && strcmp(optarg, "ast")) {
				fprintf(stderr, "sonde: --dump takes ast or bpf, not '%s'\n",
					optarg);
				return 1;
			}
			dump = optarg;
			break;
		case OPT_DRY_RUN: dry_run = true; break;
		case OPT_UNSAFE: unsafe = true; break;
		case OPT_FLAMEGRAPH: flamepath = optarg; break;
		case OPT_INFO:
			return info_print(stdout) ? 1 : 0;
		case 'h': usage(stdout); return 0;
		case 'V': printf("sonde %s\n", SONDE_VERSION); return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (list && !prog_text && (optind >= argc || !is_script(argv[optind])))
		return list_probes(optind < argc ? argv[optind] : NULL, verbose,
				   target_pid) ? 1 : 0;
	if (target_pid && command) {
		fputs("sonde: -p and -c cannot be used together\n", stderr);
		return 1;
	}
	if (target_pid && kill(target_pid, 0) != 0 && errno == ESRCH) {
		fprintf(stderr, "sonde: -p %d: no such process\n", target_pid);
		return 1;
	}
	if (!prog_text) {
		if (optind >= argc) {
			fputs("sonde: no program: give a FILE or -e 'PROGRAM'\n", stderr);
			usage(stderr);
			return 1;
		}
		file = argv[optind++];
		/* one byte more than a script may have: parse_program
		 * reports a longer script, without reading all of it */
		rc = read_file_max(file, &src, &srclen, SCRIPT_MAX_SIZE + 1);
		if (rc) {
			fprintf(stderr, "sonde: cannot read %s: %s\n", file,
				strerror(-rc));
			return 1;
		}
		if (!strcmp(file, "-"))
			file = "stdin";
	} else {
		src = xstrdup(prog_text);
		srclen = strlen(src);
		file = "-e";
	}

	compiler_init(&c, file, src, srclen);
	c.strlen_ = env_int("BPFTRACE_STRLEN", 64, 1, 4096);
	c.map_keys_max = env_int("BPFTRACE_MAP_KEYS_MAX", 4096, 1, 1 << 24);
	/* "sonde FILE -- -5 7": the -- only ends the options */
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	c.verbose = verbose;
	c.target_pid = target_pid;
	c.has_command = command != NULL;
	c.unsafe = unsafe;
	c.check_reads = check_reads;
	c.params = argv + optind;
	c.nparams = argc - optind;
	rc = 1;
	c.ast = parse_program(src, srclen, &c.arena, &c.diag);
	if (!c.ast)
		goto out;
	/* A script that will run has its ring buffer made while it
	 * compiles: that is most of its start. */
	if (!list && !dump) {
		tracer_init(&t, &c, stdout);
		ld_ringbuf_start(&t, c.ast);
		tracing = true;
	}
	if (sema_check(&c))
		goto out;
	if (list) {
		list_script(&c);
		rc = 0;
		goto out;
	}
	if (flamepath || format == OUT_FOLDED) {
		int n = 0;

		for (int i = 0; i < c.nmaps; i++)
			n += pr_foldable(c.maps[i]);
		if (!n && flamepath) {
			fputs("sonde: --flamegraph: no map is keyed by a stack (kstack, ustack) with count(), sum() or integer values\n",
			      stderr);
			goto out;
		}
		if (!n)
			fputs("sonde: warning: -f folded: no map is keyed by a stack (kstack, ustack) with count(), sum() or integer values; maps print as text on stderr\n",
			      stderr);
	}
	if (dump && !strcmp(dump, "ast")) {
		ast_dump(stdout, c.ast);
		rc = 0;
		goto out;
	}
	if (cg_program(&c))
		goto out;
	if (dump) {
		for (int i = 0; i < c.nprogs; i++)
			asm_dump(stdout, &c, &c.progs[i]);
		rc = 0;
		goto out;
	}
	if (outpath) {
		out = fopen(outpath, "w");
		if (!out) {
			fprintf(stderr, "sonde: cannot write %s: %s\n", outpath,
				strerror(errno));
			goto out;
		}
	}
	if (flamepath && !dry_run) {
		flame = fopen(flamepath, "w");
		if (!flame) {
			fprintf(stderr, "sonde: cannot write %s: %s\n", flamepath,
				strerror(errno));
			if (out != stdout)
				fclose(out);
			goto out;
		}
	}
	if (buffering >= 0)
		setvbuf(out, NULL, buffering, buffering == _IONBF ? 0 : BUFSIZ);
	t.out = out;
	t.format = format;
	t.color = format == OUT_TEXT && isatty(fileno(out)) &&
		  !getenv("NO_COLOR");
	t.buffered = buffering >= 0;
	t.quiet = quiet;
	t.verbose = verbose;
	t.target_pid = target_pid;
	t.flame = flame;
	if (command && rt_spawn(&t, command)) {
		if (flame)
			fclose(flame);
		if (out != stdout)
			fclose(out);
		goto out;
	}
	rt_install_signals();
	if (ld_load(&t) == 0 && (dry_run || rt_run(&t) == 0))
		rc = 0;
	tracer_close(&t);
	tracing = false;
	if (out != stdout)
		fclose(out);
	if (flame && fclose(flame) && !rc) {
		fprintf(stderr, "sonde: cannot write %s: %s\n", flamepath,
			strerror(errno));
		rc = 1;
	}
out:
	if (tracing)
		tracer_close(&t);
	compiler_free(&c);
	free(src);
	return rc;
}
