/* inject.c - sonde inject: make chosen calls fail without writing a
 * script.  The options become a sonde-language script (an fentry probe
 * on the kernel hook where the call is checked, made a
 * BPF_MODIFY_RETURN program by override()), which runs through
 * cli_parse() and session_run() as if the user had written it: the
 * filters, the counters and the coin are the kernel's, per call; the
 * END block reports.  docs/fault-injection.md, docs/internals.md
 * "Fault injection". */
#include "inject.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "catalog/kconst.h"
#include "options.h"

/* Where each call is checked: the LSM hook a BPF_MODIFY_RETURN program
 * may make fail on any kernel with BPF trampolines (Debian's have no
 * error-injection list for the calls themselves), and what tells it
 * apart when a hook serves several calls.  FILE: its first argument is
 * a struct file (so --path-prefix applies). */
static const struct target {
	const char *names;	/* the calls, space-separated */
	const char *hook;
	const char *pred;	/* "" or a condition on its args */
	bool file;
} targets[] = {
	{ "open openat openat2 creat", "security_file_open", "", true },
	{ "read readv pread64 preadv", "security_file_permission",
	  "args.mask & 4", true },	/* MAY_READ */
	{ "write writev pwrite64 pwritev", "security_file_permission",
	  "args.mask & 2", true },	/* MAY_WRITE */
	{ "mmap", "security_mmap_file", "", false },
	{ "ioctl", "security_file_ioctl", "", false },
	{ "socket", "security_socket_create", "", false },
	{ "connect", "security_socket_connect", "", false },
	{ "bind", "security_socket_bind", "", false },
	{ "listen", "security_socket_listen", "", false },
	{ "accept accept4", "security_socket_accept", "", false },
	{ "sendmsg sendto send", "security_socket_sendmsg", "", false },
	{ "recvmsg recvfrom recv", "security_socket_recvmsg", "", false },
	{ "execve execveat", "security_bprm_check", "", false },
	{ "fork vfork clone clone3", "security_task_alloc", "", false },
	{ "kill tkill tgkill", "security_task_kill", "", false },
	{ "unlink unlinkat", "security_inode_unlink", "", false },
	{ "rmdir", "security_inode_rmdir", "", false },
	{ "mkdir mkdirat", "security_inode_mkdir", "", false },
	{ "rename renameat renameat2", "security_inode_rename", "", false },
};

struct inject {
	const char *fail, *err, *ret, *comm, *cgroup, *prefix;
	const char *cmd, *out;
	long pid, every, after, count;
	double prob;
	bool json, verbose;
	const struct target *t;	/* NULL: kernel:FUNC, FILE:FUNC */
	const char *hook;
	bool user;		/* FILE:FUNC */
	char probe[600];	/* what it attaches to */
};

static void usage(FILE *f)
{
	fputs("usage: sonde inject --fail CALL (--errno E | --return N) [FILTER...] [-c CMD]\n"
	      "  --fail CALL         the system call to fail: open, openat, read, write,\n"
	      "                      connect, execve, fork, unlink, ... (docs/fault-injection.md),\n"
	      "                      or kernel:FUNC, a kernel function BPF may make fail\n"
	      "                      (a security_* hook), or FILE:FUNC, a user function\n"
	      "                      (Linux 7.0; with -c or --pid)\n"
	      "  --errno E           fail with errno E (ENOENT, EIO, or a number)\n"
	      "  --return N          make it return N instead\n"
	      "  --pid PID           only in process PID (-p PID alike)\n"
	      "  --comm NAME         only in tasks named NAME\n"
	      "  --cgroup PATH       only in cgroup v2 directory PATH\n"
	      "  --path-prefix P     only on files whose path starts with P (open,\n"
	      "                      read, write)\n"
	      "  --every N           every Nth matching call (default 1)\n"
	      "  --after N           let the first N matching calls through\n"
	      "  --probability P     each time with probability P (0 < P <= 1)\n"
	      "  --count N           stop after N injections\n"
	      "  -c CMD              run CMD, inject into it alone, stop when it exits\n"
	      "  -o FILE             the report (and the script's output) to FILE\n"
	      "  -f json             the report as one JSON line\n"
	      "  -v                  say what is loaded and attached\n"
	      "Only root may inject; the report counts the matching calls and the\n"
	      "failed ones.  Ctrl-C disarms; so does any exit.\n", f);
}

static int bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A message about the command line: exit status 2. */
static int bad(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "sonde inject: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* A whole non-negative number, or -1. */
static long number(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end ? -1 : v;
}

/* Text that goes into a script's string literal: printable, quotes and
 * backslashes escaped by the caller. */
static bool printable(const char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			return false;
	return true;
}

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The table's row naming CALL, or NULL. */
static const struct target *find_target(const char *call)
{
	size_t n = strlen(call);

	for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
		for (const char *p = targets[i].names; *p;) {
			size_t l = strcspn(p, " ");

			if (l == n && !strncmp(p, call, n))
				return &targets[i];
			p += l + (p[l] == ' ');
		}
	return NULL;
}

/* The options whose value is kept as written. */
static const struct {
	const char *opt;
	size_t off;
} texts[] = {
	{ "--fail", offsetof(struct inject, fail) },
	{ "--errno", offsetof(struct inject, err) },
	{ "--return", offsetof(struct inject, ret) },
	{ "--comm", offsetof(struct inject, comm) },
	{ "--cgroup", offsetof(struct inject, cgroup) },
	{ "--path-prefix", offsetof(struct inject, prefix) },
	{ "-c", offsetof(struct inject, cmd) },
	{ "-o", offsetof(struct inject, out) },
};

static int take(struct inject *in, const char *opt, const char *v)
{
	long n;

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		if (!strcmp(opt, texts[i].opt)) {
			*(const char **)((char *)in + texts[i].off) = v;
			return 0;
		}
	if (!strcmp(opt, "-f")) {
		if (strcmp(v, "json") && strcmp(v, "text"))
			return bad("-f takes json or text, not '%s'", v);
		in->json = !strcmp(v, "json");
	} else if (!strcmp(opt, "--probability")) {
		char *end;

		in->prob = strtod(v, &end);
		if (*end || end == v || !(in->prob > 0 && in->prob <= 1))
			return bad("--probability takes a number above 0 and at most 1, not '%s'", v);
	} else {
		if ((n = number(v)) < 0)
			return bad("%s takes a whole number", opt);
		if (!strcmp(opt, "--pid") || !strcmp(opt, "-p"))
			in->pid = n;
		else if (!strcmp(opt, "--every"))
			in->every = n;
		else if (!strcmp(opt, "--after"))
			in->after = n;
		else if (!strcmp(opt, "--count"))
			in->count = n;
		else
			return bad("unknown option '%s' (sonde inject --help)", opt);
		if (n == 0 && (!strcmp(opt, "--every") || !strcmp(opt, "--count") ||
			       !strcmp(opt, "--pid") || !strcmp(opt, "-p")))
			return bad("%s takes a number from 1", opt);
	}
	return 0;
}

static int parse(struct inject *in, int argc, char **argv)
{
	static const char *const valued[] = {	/* besides texts[] */
		"--pid", "-p", "--every", "--after", "--probability",
		"--count", "-f",
	};

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		char opt[32];
		bool known = false;
		int rc;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		}
		if (!strcmp(a, "-v")) {
			in->verbose = true;
			continue;
		}
		snprintf(opt, sizeof(opt), "%.*s",
			 eq && !strncmp(a, "--", 2) ? (int)(eq - a) : (int)strlen(a), a);
		for (size_t k = 0; k < ARRAY_SIZE(valued); k++)
			known |= !strcmp(opt, valued[k]);
		for (size_t k = 0; k < ARRAY_SIZE(texts); k++)
			known |= !strcmp(opt, texts[k].opt);
		if (!known)
			return bad("unknown option '%s' (sonde inject --help)", a);
		if (!(eq && !strncmp(a, "--", 2)) && i + 1 >= argc)
			return bad("%s needs a value", a);
		rc = take(in, opt, eq && !strncmp(a, "--", 2) ? eq + 1 : argv[++i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* The checks no script could make clearer. */
static int check(struct inject *in)
{
	int64_t v;

	if (!in->fail)
		return bad("%s", "--fail CALL is needed (sonde inject --help)");
	if (!in->err == !in->ret)
		return bad("%s", "give one of --errno E and --return N");
	if (in->err && !(number(in->err) > 0) &&
	    (in->err[0] != 'E' ||
	     strspn(in->err, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != strlen(in->err)))
		return bad("--errno takes a name like ENOENT or a number, not '%s'", in->err);
	if (in->err && in->err[0] == 'E' && !kconst_lookup(in->err, &v))
		return bad("--errno %s: no such errno here (the kernel's: ENOENT, EACCES, EIO, ...)", in->err);
	if (in->ret && number(in->ret + (in->ret[0] == '-')) < 0)
		return bad("--return takes an integer, not '%s'", in->ret);
	if (!strncmp(in->fail, "kernel:", 7)) {
		in->hook = in->fail + 7;
		if (!*in->hook || strspn(in->hook, "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		    strlen(in->hook))
			return bad("--fail kernel:FUNC takes a kernel function's name, not '%s'", in->fail);
	} else if (strchr(in->fail, ':') || strchr(in->fail, '/')) {
		/* FILE:FUNC: a uprobe, which fires in -c's or -p's process */
		in->user = true;
		if (strspn(in->fail, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_./:+-@") != strlen(in->fail) ||
		    !strchr(in->fail, ':'))
			return bad("--fail FILE:FUNC takes a file and a function, not '%s'", in->fail);
		if (!in->cmd && !in->pid)
			return bad("--fail %s: a user function needs -c CMD or --pid PID (uprobes fire in that process)",
				   in->fail);
	} else if (!(in->t = find_target(in->fail))) {
		return bad("--fail %s: not a call sonde inject knows (docs/fault-injection.md lists them; kernel:FUNC names a hook)",
			   in->fail);
	} else {
		in->hook = in->t->hook;
	}
	snprintf(in->probe, sizeof(in->probe), "%s:%s",
		 in->user ? "uprobe" : "fentry", in->user ? in->fail : in->hook);
	if (!in->user && in->ret && number(in->ret + (in->ret[0] == '-')) == 0)
		return bad("%s", "--return 0 is no failure: a hook returning 0 lets the call through");
	if (in->prefix && !(in->t && in->t->file))
		return bad("--path-prefix works with calls on files (open, read, write), not %s", in->fail);
	if ((in->comm && !printable(in->comm)) || (in->cgroup && !printable(in->cgroup)) ||
	    (in->prefix && !printable(in->prefix)))
		return bad("%s", "--comm, --cgroup and --path-prefix take printable text");
	if (in->pid && in->cmd)
		return bad("%s", "give -c CMD or --pid PID, not both");
	if (geteuid() != 0)
		return bad("%s", "only root may inject faults");
	return 0;
}

/* The value override() gets: -ERRNO or the return. */
static void put_value(FILE *f, const struct inject *in)
{
	if (in->ret)
		fputs(in->ret, f);
	else
		fprintf(f, "-%s", in->err);
}

static void put_filters(FILE *f, const struct inject *in)
{
	const char *and = "";

	fputs("/", f);
	if (in->t && *in->t->pred) {
		fprintf(f, "(%s)", in->t->pred);
		and = " && ";
	}
	if (in->pid) {
		fprintf(f, "%spid == %ld", and, in->pid);
		and = " && ";
	}
	if (in->cmd) {	/* not sonde's own exec of it */
		fprintf(f, "%spid == cpid && comm != \"sonde\"", and);
		and = " && ";
	}
	if (in->comm) {
		fprintf(f, "%scomm == ", and);
		put_str(f, in->comm);
		and = " && ";
	}
	if (in->cgroup) {
		fprintf(f, "%scgroup == cgroupid(", and);
		put_str(f, in->cgroup);
		fputs(")", f);
		and = " && ";
	}
	if (in->prefix) {
		fprintf(f, "%sstrncmp(path(args.file->f_path), ", and);
		put_str(f, in->prefix);
		fprintf(f, ", %zu) == 0", strlen(in->prefix));
		and = " && ";
	}
	if (in->count)	/* past the last: not even counted */
		fprintf(f, "%s@injected < %ld", and, in->count);
	else if (!*and)
		fputs("1", f);
	fputs("/", f);
}

static char *script(const struct inject *in)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	long every = in->every ? in->every : 1;

	if (!f)
		return NULL;
	fputs("config = { print_maps_on_exit = false }\n", f);
	fprintf(f, "%s ", in->probe);
	put_filters(f, in);
	fprintf(f, " {\n\t@calls++;\n\t$n = @calls;\n\tif ($n > %ld && ($n - %ld) %% %ld == 0",
		in->after, in->after, every);
	if (in->prob > 0 && in->prob < 1)
		fprintf(f, " && rand %% 1000000 < %ld", (long)(in->prob * 1e6 + 0.5));
	fputs(") {\n\t\toverride(", f);
	put_value(f, in);
	fputs(");\n\t\t@injected++;\n", f);
	if (in->count)
		fprintf(f, "\t\tif (@injected >= %ld) { exit(); }\n", in->count);
	fputs("\t}\n}\n", f);
	/* the report: the counts, and what failed */
	fputs("END {\n\t", f);
	if (in->json) {
		fputs("printf(\"{\\\"type\\\": \\\"inject\\\", \\\"data\\\": {\\\"fail\\\": \\\"%s\\\", \\\"probe\\\": \\\"%s\\\", \\\"return\\\": %d, \\\"calls\\\": %d, \\\"injected\\\": %d}}\\n\", ", f);
	} else {
		fputs("printf(\"sonde inject: %s (%s): %d of %d matching calls made to return %d\\n\", ", f);
	}
	put_str(f, in->fail);
	fputs(", ", f);
	fprintf(f, "\"%s\", ", in->probe);
	if (in->json) {
		put_value(f, in);
		fputs(", (int64)@calls, (int64)@injected);\n}\n", f);
	} else {
		fputs("(int64)@injected, (int64)@calls, ", f);
		put_value(f, in);
		fputs(");\n}\n", f);
	}
	fclose(f);
	return text;
}

/* What is armed, before anything is: to stderr. */
static void summary(const struct inject *in)
{
	fprintf(stderr, "sonde inject: arming %s (%s) to return ", in->fail,
		in->probe);
	if (in->ret)
		fprintf(stderr, "%s", in->ret);
	else
		fprintf(stderr, "-%s", in->err);
	if (in->pid)
		fprintf(stderr, ", in pid %ld", in->pid);
	if (in->cmd)
		fprintf(stderr, ", in the command");
	if (in->comm)
		fprintf(stderr, ", in tasks named %s", in->comm);
	if (in->cgroup)
		fprintf(stderr, ", in cgroup %s", in->cgroup);
	if (in->prefix)
		fprintf(stderr, ", on paths under %s", in->prefix);
	if (in->every > 1)
		fprintf(stderr, ", one matching call in %ld", in->every);
	if (in->after)
		fprintf(stderr, ", after the first %ld", in->after);
	if (in->prob > 0 && in->prob < 1)
		fprintf(stderr, ", with probability %g", in->prob);
	if (in->count)
		fprintf(stderr, ", %ld times at most", in->count);
	fprintf(stderr, "; %s disarms\n", in->cmd ? "its exit or Ctrl-C" : "Ctrl-C");
}

int inject_main(int argc, char **argv)
{
	struct inject in = { 0 };
	struct options o;
	const char *av[16];
	char *text, pid[24];
	int ac = 0, rc;

	rc = parse(&in, argc, argv);
	if (rc)
		return rc == 1 ? 0 : rc;
	if ((rc = check(&in)))
		return rc;
	if (!(text = script(&in)))
		return bad("%s", strerror(errno));
	if (in.verbose)
		fprintf(stderr, "sonde inject: the script:\n%s", text);
	summary(&in);
	av[ac++] = "sonde";
	av[ac++] = "--dialect=0.26";
	av[ac++] = "--unsafe";
	if (in.verbose)
		av[ac++] = "-v";
	if (in.cmd) {
		av[ac++] = "-c";
		av[ac++] = in.cmd;
	}
	if (in.pid && in.user) {	/* the process the uprobe fires in */
		snprintf(pid, sizeof(pid), "%ld", in.pid);
		av[ac++] = "-p";
		av[ac++] = pid;
	}
	if (in.out) {
		av[ac++] = "-o";
		av[ac++] = in.out;
	}
	av[ac++] = "-e";
	av[ac++] = text;
	av[ac] = NULL;
	rc = cli_parse(ac, (char **)av, &o);
	if (rc) {
		options_free(&o);
		free(text);
		return rc - 1;
	}
	rc = session_run(&o);
	free(text);
	return rc;
}
