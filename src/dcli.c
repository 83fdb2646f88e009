/* dcli.c - dtrace(1)'s command line: `sonde dtrace ...`, or sonde
 * installed (linked) as dtrace.  -h and -G are the build-time tool
 * (dtrace/dtrace.c); everything else runs a D program through the
 * same session as sonde's own command line (session.c), with the
 * front end (lang/dparse.c) and the output (out/) in D's ways.
 * Exit statuses as dtrace(1): 0 success, 1 failure, 2 bad usage. */
#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/pp.h"
#include "dcli.h"
#include "options.h"
#include "base/util.h"
#include "catalog/info.h"
#include "dtrace/dtrace.h"

static void usage(FILE *f)
{
	fputs(
"Usage: sonde dtrace [-CeqlvVwZ] [-c cmd] [-D name[=def]] [-I path]\n"
"        [-o output] [-p pid] [-s script] [-U name] [-x opt[=val]]\n"
"        [-P provider [[ predicate ] action ]]\n"
"        [-m [ provider: ] module [[ predicate ] action ]]\n"
"        [-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
"        [-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
"        [ args ... ]\n"
"       sonde dtrace -h|-G -s provider.d [-o output] (USDT headers and\n"
"        semaphores; sonde dtrace -h --help)\n"
"\n"
"        predicate -> '/' D-expression '/'\n"
"           action -> '{' D-statements '}'\n"
"\n"
"        -c  run specified command and exit upon its completion\n"
"        -C  run the preprocessor's #define and #if (always on in sonde)\n"
"        -D  define symbol when running the preprocessor\n"
"        -e  exit after compiling request but prior to enabling probes\n"
"        -f  enable or list probes matching the specified function name\n"
"        -I  add include directory to preprocessor search path\n"
"        -l  list probes matching specified criteria\n"
"        -m  enable or list probes matching the specified module name\n"
"        -n  enable or list probes matching the specified probe name\n"
"        -o  set output file\n"
"        -p  grab specified process-ID and cache its symbol tables\n"
"        -P  enable or list probes matching the specified provider name\n"
"        -q  set quiet mode (only output explicitly traced data)\n"
"        -s  enable or list probes according to the specified D script\n"
"        -U  undefine symbol when running the preprocessor\n"
"        -v  set verbose mode (report stability attributes, arguments)\n"
"        -V  report DTrace API version\n"
"        -w  permit destructive actions\n"
"        -x  enable or modify compiler and tracing options\n"
"        -Z  permit probe descriptions that match zero probes\n"
"\n"
"The D language as sonde runs it: docs/d-language.md.\n", f);
}

/* The text of the program: each -n, -P, -m, -f a clause of its own,
 * each -s a file's text; *KIND says which came (for messages). */
struct dprog {
	char *text;
	size_t len, cap;
	int nparts;
	const char *file;	/* the one -s, for its messages */
};

static void add_text(struct dprog *d, const char *s, size_t n)
{
	if (d->len + n + 2 > d->cap) {
		d->cap = 2 * (d->len + n + 2);
		d->text = xrealloc(d->text, d->cap);
	}
	memcpy(d->text + d->len, s, n);
	d->len += n;
	if (!n || s[n - 1] != '\n')	/* parts end their lines */
		d->text[d->len++] = '\n';
	d->text[d->len] = 0;
	d->nparts++;
}

/* -P prov, -m [prov:]mod, -f [[prov:]mod:]func: a description with the
 * fields it leaves out empty (any), as -n's. */
/* -D NAME[=VALUE] (the value 1 when none) and -U NAME, as the
 * preprocessor's lines, in the order given. */
static void define(struct options *o, int opt, const char *arg)
{
	const char *eq = opt == 'D' ? strchr(arg, '=') : NULL;
	size_t have = o->defines ? strlen(o->defines) : 0;
	size_t need = have + strlen(arg) + 16;

	o->defines = xrealloc(o->defines, need);
	if (opt == 'U')
		snprintf(o->defines + have, need - have, "#undef %s\n", arg);
	else if (eq)
		snprintf(o->defines + have, need - have, "#define %.*s %s\n",
			 (int)(eq - arg), arg, eq + 1);
	else
		snprintf(o->defines + have, need - have, "#define %s 1\n", arg);
}

static void add_desc(struct dprog *d, int opt, const char *arg)
{
	size_t colons = 0, len = strcspn(arg, " \t/{");
	int want = opt == 'P' ? 0 : opt == 'm' ? 1 : opt == 'f' ? 2 : 3;
	char *s;

	for (size_t i = 0; i < len; i++)
		colons += arg[i] == ':';
	s = xmalloc(strlen(arg) + 8);
	s[0] = 0;
	/* D reads a short description from the right (its last field
	 * the name): -P, -m and -f name fields further left, so the
	 * fields after theirs are added, empty */
	strncat(s, arg, len);
	for (int i = want > (int)colons ? want : (int)colons; i < 3; i++)
		strcat(s, ":");
	strcat(s, arg + len);
	add_text(d, s, strlen(s));
	free(s);
}

static int read_all(const char *path, char **out, size_t *len)
{
	int rc = read_file_max(path, out, len, 1 << 20);

	if (rc) {
		fprintf(stderr, "dtrace: failed to open %s: %s\n", path,
			strerror(-rc));
		return -1;
	}
	return 0;
}

/* -x NAME[=VALUE] and #pragma D option: those sonde's run takes here;
 * the rest go to the compile (lang/dparse.c checks them). */
static int xoption(struct options *o, const char *arg)
{
	size_t n = strcspn(arg, "=");

	if (n == 5 && !strncmp(arg, "quiet", n))	/* quiet, quiet=on, quiet=0 */
		o->quiet = d_option_on(arg[n] ? arg + n + 1 : NULL);
	else if (n == 7 && !strncmp(arg, "errtags", n))
		o->errtags = true;
	else if (n == 11 && !strncmp(arg, "destructive", n))
		o->unsafe = true;
	else if (n == 10 && !strncmp(arg, "aggsortkey", n))
		o->dt_aggsortkey = true;
	else if (n == 11 && !strncmp(arg, "defaultargs", n))
		o->dt_defaultargs = true;
	else if (n == 6 && !strncmp(arg, "argref", n))
		o->dt_argref = true;
	else if (n == 8 && !strncmp(arg, "droptags", n))
		o->dt_droptags = true;
	else if (n == 5 && !strncmp(arg, "zdefs", n))
		o->zero_ok = true;
	else if (options_d_spec(o, arg) < 0)
		return -1;
	o->dopts[o->ndopts++] = arg;
	return 0;
}

static int pid_arg(const char *arg, int *pid)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v <= 0 || v > 0x3fffffff) {
		fprintf(stderr, "dtrace: invalid process ID: %s\n", arg);
		return -1;
	}
	if (kill((pid_t)v, 0) && errno == ESRCH) {
		fprintf(stderr, "dtrace: failed to grab pid %ld: No such process\n",
			v);
		return -1;
	}
	*pid = (int)v;
	return 0;
}

/* argv into O and the program text; 0, or 1 + an exit status. */
static int parse(int argc, char **argv, struct options *o, struct dprog *d)
{
	int i;

	memset(o, 0, sizeof(*o));
	o->bufsize = o->aggsize = -1;
	o->buffering = -1;
	o->lang_d = true;
	o->dt_testing = getenv("_DTRACE_TESTING") != NULL;
	o->incdirs = xcalloc((size_t)argc + 1, sizeof(char *));
	o->includes = xcalloc((size_t)argc + 1, sizeof(char *));
	o->dopts = xcalloc((size_t)argc + 1, sizeof(char *));
	o->params = xcalloc((size_t)argc + 1, sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *arg;
		int opt;

		if (a[0] != '-' || !a[1]) {
			o->params[o->nparams++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			while (++i < argc)
				o->params[o->nparams++] = argv[i];
			break;
		}
		if (!strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(a, "-32") || !strcmp(a, "-64"))
			continue;
		for (const char *p = a + 1; *p; p++) {
			opt = *p;
			if (strchr("cDIopsUxnPmfbXi", opt)) {
				/* an option with a value: the rest, or the next */
				if (p[1])
					arg = p + 1;
				else if (i + 1 < argc)
					arg = argv[++i];
				else {
					fprintf(stderr, "dtrace: option requires an argument -- '%c'\n",
						opt);
					usage(stderr);
					return 3;
				}
			} else {
				arg = NULL;
			}
			switch (opt) {
			case 'q': o->quiet = true; break;
			case 'v': o->verbose = true; break;
			case 'l': o->list = true; break;
			case 'e': o->dump = "none"; break;
			case 'w': o->unsafe = true; break;
			case 'Z': o->zero_ok = true; break;
			case 'C': case 'S': case 'F': case 'a': case 'A':
			case 'H': case '3': case '6': break;
			case 'V':
				puts("dtrace: Sun D 2.0 (sonde " SONDE_VERSION ")");
				return 1;
			case 'c': o->command = arg; break;
			case 'p':	/* dtrace's fatal(): status 1 */
				if (pid_arg(arg, &o->target_pid))
					return 2;
				break;
			case 'o': o->outpath = arg; break;
			case 's':
				if (d->nparts || d->file) {
					/* several -s: one text, named by the first */
				}
				if (!d->file)
					d->file = arg;
				{
					char *t;
					size_t n;

					if (read_all(arg, &t, &n))
						return 2;
					add_text(d, t, n);
					free(t);
				}
				break;
			case 'n': case 'P': case 'm': case 'f':
				add_desc(d, opt, arg);
				break;
			case 'I': o->incdirs[o->nincdirs++] = arg; break;
			case 'D': case 'U':
				define(o, opt, arg);
				break;
			case 'x':
				if (xoption(o, arg))
					return 2;
				break;
			case 'b': case 'X': case 'i': break;
			default:
				fprintf(stderr, "dtrace: illegal option -- %c\n", opt);
				usage(stderr);
				return 3;
			}
			if (arg)
				break;
		}
	}
	if (!d->nparts && !o->list) {
		usage(stderr);
		return 3;
	}
	if (!d->nparts) {
		/* -l alone: every probe of the providers a plain kernel has
		 * (fbt's and sdt's thousands need a description) */
		static const char all[] =
			"dtrace:::BEGIN, dtrace:::END, syscall:::, proc:::, sched:::, io:::";

		add_text(d, all, sizeof(all) - 1);
		o->zero_ok = true;
	}
	if (o->target_pid && o->command) {
		fputs("dtrace: -p and -c cannot be used together\n", stderr);
		return 3;
	}
	return 0;
}

/* -h or -G anywhere: the build-time tool. */
static bool generator(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || a[1] == '-' || !strcmp(a, "-32") ||
		    !strcmp(a, "-64"))
			continue;
		for (const char *p = a + 1; *p; p++) {
			if (*p == 'h' || *p == 'G')
				return true;
			if (strchr("cDIopsUxnPmfbXi", *p)) {
				if (!p[1])
					i++;
				break;
			}
		}
	}
	return false;
}

int dcli_main(int argc, char **argv)
{
	return dcli_run(argc, argv, NULL);
}

int dcli_run(int argc, char **argv, const struct serve_session *serve)
{
	struct options o;
	struct dprog d = { 0 };
	char *name = NULL;
	int rc;

	if (generator(argc, argv))
		return dtrace_main(argc, argv);
	/* printf's ' flag groups digits as the user's locale says */
	setlocale(LC_NUMERIC, "");
	rc = parse(argc, argv, &o, &d);
	if (rc) {
		options_free(&o);
		free(d.text);
		return rc - 1;
	}
	o.prog_text = d.text ? d.text : "";
	o.prog_len = d.len;
	if (d.file && d.nparts == 1) {
		o.prog_name = d.file;
		o.dt_what = "script";
	} else {
		/* -n's text, as dtrace names it: "invalid probe
		 * specifier TEXT" */
		size_t n = strcspn(o.prog_text, "\n");

		name = xmalloc(n + 1);
		memcpy(name, o.prog_text, n);
		name[n] = 0;
		o.prog_name = name;
		o.dt_what = "description";
	}
	/* #include "FILE" looks beside the script */
	o.file = d.file;
	o.serve = serve;
	rc = session_run(&o);
	free(d.text);
	free(name);
	return rc;
}
