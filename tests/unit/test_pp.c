/* test_pp.c - unit tests for the preprocessor's limits and options that
 * scripts alone cannot reach: included files past SCRIPT_MAX_SIZE and
 * PP_MAX_INCLUDED, a directory no file may be read outside of (the
 * fuzz target's), predefined macros, the kernel-constant hook of #if,
 * and --include order; and the tables of kernel constants.  The files
 * live in a temporary directory.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "lang/parse.h"
#include "catalog/kconst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static char dir[] = "/tmp/sonde-test-pp.XXXXXX";

static const char *path(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* NAME in the directory: TEXT, then PAD bytes of blanks. */
static void write_file(const char *name, const char *text, size_t pad)
{
	FILE *f = fopen(path(name), "w");

	if (!f) {
		perror(name);
		exit(1);
	}
	fputs(text, f);
	for (size_t i = 0; i < pad; i++)
		fputc(i % 64 == 63 ? '\n' : ' ', f);
	fclose(f);
}

/* Compile SRC with O; its diagnostics (the first line) in OUT. */
static bool compile(const char *src, const struct pp_opts *o, char *out,
		    size_t cap)
{
	struct arena a = { 0 };
	struct diag d;
	FILE *f = fmemopen(out, cap, "w");
	struct program *p;

	memset(out, 0, cap);
	memset(&d, 0, sizeof(d));
	d.file = "t.bt";
	d.src = src;
	d.srclen = strlen(src);
	d.out = f;
	p = parse_program(src, strlen(src), &a, &d, o);
	fclose(f);
	arena_free(&a);
	return p != NULL;
}

static bool has(const char *out, const char *what)
{
	return strstr(out, what) != NULL;
}

static void sizes(void)
{
	struct pp_opts o = { .dir = dir };
	char out[4096];

	write_file("big.h", "#define BIG 1\n", SCRIPT_MAX_SIZE);
	check(!compile("#include \"big.h\"\nBEGIN { }\n", &o, out, sizeof(out)) &&
	      has(out, "t.bt:1:10: error[E_PREPROC]: ") &&
	      has(out, "big.h is longer than 1048576 bytes"),
	      "an included file over SCRIPT_MAX_SIZE is an error at its #include");
	write_file("half.h", "", SCRIPT_MAX_SIZE / 2);
	check(!compile("#include \"half.h\"\n#include \"half.h\"\n#include \"half.h\"\n"
		       "#include \"half.h\"\n#include \"half.h\"\n#include \"half.h\"\n"
		       "#include \"half.h\"\n#include \"half.h\"\n#include \"half.h\"\n"
		       "BEGIN { }\n", &o, out, sizeof(out)) &&
	      has(out, "t.bt:9:10: error[E_PREPROC]: the included files hold more than 4194304 bytes"),
	      "PP_MAX_INCLUDED bytes of included text at most, read again or not");
	write_file("once.h", "#pragma once\nstruct once { int x; };\n", SCRIPT_MAX_SIZE / 2);
	check(compile("#include \"once.h\"\n#include \"once.h\"\n#include \"once.h\"\n"
		      "#include \"once.h\"\n#include \"once.h\"\n#include \"once.h\"\n"
		      "#include \"once.h\"\n#include \"once.h\"\n#include \"once.h\"\n"
		      "BEGIN { }\n", &o, out, sizeof(out)),
	      "#pragma once: a file read once (and a struct defined once)");
}

static void root(void)
{
	struct pp_opts o = { .dir = dir, .root = dir };
	char out[4096];

	write_file("inside.h", "#define INSIDE 1\n", 0);
	check(compile("#include \"inside.h\"\n#if INSIDE\nBEGIN { }\n#endif\n",
		      &o, out, sizeof(out)),
	      "with a root, files inside it are read");
	check(!compile("#include \"/etc/passwd\"\nBEGIN { }\n", &o, out, sizeof(out)) &&
	      has(out, "error[E_PREPROC]: #include \"/etc/passwd\": no such file"),
	      "with a root, a file outside it is not read");
	check(!compile("#include \"../../etc/passwd\"\nBEGIN { }\n", &o, out, sizeof(out)) &&
	      has(out, "no such file"), "nor one reached by ..");
	check(compile("#include <linux/sched.h>\n#include <errno.h>\nBEGIN { }\n",
		      &o, out, sizeof(out)),
	      "with a root, system headers are known by their names");
	check(!compile("#include <stdio_ext.h>\nBEGIN { }\n", &o, out, sizeof(out)),
	      "with a root, /usr/include is not looked into");
}

static bool hook(void *arg, const char *name, int64_t *value)
{
	(void)arg;
	if (strcmp(name, "KCONST"))
		return false;
	*value = 5;
	return true;
}

static void options(void)
{
	const char *predef[] = { "ONE", "SEVEN=7", "NEG=-3" };
	const char *includes[] = { "first.h", "second.h" };
	const char *incdirs[] = { dir };
	struct pp_opts o = {
		.dir = "/", .predef = predef, .npredef = 3,
		.includes = includes, .nincludes = 2,
		.incdirs = incdirs, .nincdirs = 1,
		.constant = hook,
	};
	char out[4096];

	write_file("first.h", "#define ORDER 1\n", 0);
	write_file("second.h", "#if ORDER != 1\n#error first.h first\n#endif\n", 0);
	check(compile("#if ONE == 1 && SEVEN == 7 && NEG == -3\nBEGIN { }\n#endif\n",
		      &o, out, sizeof(out)),
	      "predefined NAME and NAME=VALUE; --include in order, found by -I");
	check(compile("#if defined(KCONST) && KCONST == 5 && !defined(OTHER)\n"
		      "BEGIN { }\n#endif\n", &o, out, sizeof(out)),
	      "#if and defined() see the kernel constants");
	includes[1] = "missing.h";
	check(!compile("BEGIN { }\n", &o, out, sizeof(out)) &&
	      !strncmp(out, "t.bt: error[E_PREPROC]: --include missing.h: no such file in the current directory or the -I directories\n", 106),
	      "a missing --include: an error without a line");
}

static void kconst(void)
{
	int64_t v = -1;

	check(kconst_sorted(), "the hand-written constants are sorted");
	check(kconst_lookup("AF_INET", &v) && v == 2, "AF_INET is 2");
	check(kconst_lookup("AF_XDP", &v) && v == 44, "AF_XDP is 44");
	check(kconst_lookup("TASK_RUNNING", &v) && v == 0 &&
	      kconst_lookup("__TASK_TRACED", &v) && v == 8,
	      "TASK_RUNNING, __TASK_TRACED");
	check(!kconst_lookup("AF_NOPE", &v) && !kconst_lookup("", &v) &&
	      !kconst_lookup("~", &v), "unknown names are not found");
	/* the UAPI table, when sonde was built with linux-libc-dev */
	if (kconst_lookup("EPERM", &v)) {
		check(v == 1, "EPERM is 1");
		check(kconst_lookup("O_CREAT", &v) && v == 0100, "O_CREAT");
		check(kconst_lookup("SIGKILL", &v) && v == 9, "SIGKILL");
		check(kconst_lookup("EHWPOISON", &v) && v == 133, "EHWPOISON");
	}
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	sizes();
	root();
	options();
	kconst();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", dir);
	return check_summary();
}
