/* main.c - the command line: options, the compile, the run.  Only here
 * do errors become exit statuses. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "ir.h"
#include "parse.h"
#include "sema.h"
#include "tracer.h"
#include "info.h"

#define SONDE_VERSION "0.1.0"

static void usage(FILE *f)
{
	fputs(
"usage: sonde [options] FILE [ARG...]\n"
"       sonde [options] -e 'PROGRAM' [ARG...]\n"
"\n"
"Compile a bpftrace-language script to eBPF, run it, print what it collects.\n"
"FILE may be - for standard input.  ARGs are the positional parameters $1..\n"
"\n"
"options:\n"
"  -e PROGRAM        the program text\n"
"  -o FILE           write the output to FILE\n"
"  -q                quiet: no 'Attaching N probes...'\n"
"  -v                verbose: say what is loaded and attached\n"
"  -d, --dump=bpf    print the BPF of each probe with its source lines; do not run\n"
"      --dump=ast    print the syntax tree with types; do not run\n"
"      --dry-run     load every program into the kernel (the verifier checks\n"
"                    them), then exit without attaching or running\n"
"      --info        print the kernel features sonde found\n"
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

enum { OPT_DUMP = 256, OPT_INFO, OPT_DRY_RUN };

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dump", required_argument, NULL, OPT_DUMP },
		{ "info", no_argument, NULL, OPT_INFO },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *prog_text = NULL, *file = NULL, *outpath = NULL;
	const char *dump = NULL;
	bool quiet = false, verbose = false, dry_run = false;
	char *src = NULL;
	size_t srclen;
	struct compiler c;
	struct tracer t;
	FILE *out = stdout;
	int opt, rc;

	while ((opt = getopt_long(argc, argv, "+e:o:qvdhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e': prog_text = optarg; break;
		case 'o': outpath = optarg; break;
		case 'q': quiet = true; break;
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
		case OPT_INFO:
			return info_print(stdout) ? 1 : 0;
		case 'h': usage(stdout); return 0;
		case 'V': printf("sonde %s\n", SONDE_VERSION); return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (!prog_text) {
		if (optind >= argc) {
			fputs("sonde: no program: give a FILE or -e 'PROGRAM'\n", stderr);
			usage(stderr);
			return 1;
		}
		file = argv[optind++];
		rc = read_file(file, &src, &srclen);
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
	c.params = argv + optind;
	c.nparams = argc - optind;
	rc = 1;
	c.ast = parse_program(src, srclen, &c.arena, &c.diag);
	if (!c.ast)
		goto out;
	if (sema_check(&c))
		goto out;
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
	tracer_init(&t, &c, out);
	t.quiet = quiet;
	t.verbose = verbose;
	rt_install_signals();
	if (ld_load(&t) == 0 && (dry_run || rt_run(&t) == 0))
		rc = 0;
	tracer_close(&t);
	if (out != stdout)
		fclose(out);
out:
	compiler_free(&c);
	free(src);
	return rc;
}
