/* dtrace.c - `sonde dtrace`: the build-time half of USDT.
 *
 *   sonde dtrace -h -s provider.d [-o provider.h]
 *   sonde dtrace -G -s provider.d [-o provider.o] [objects...]
 *
 * The command line of SystemTap's dtrace wrapper (itself modelled on
 * Solaris dtrace), which build systems call when configured with
 * --enable-dtrace: PostgreSQL runs `dtrace -C -h -s probes.d -o
 * probes.h.tmp` and `dtrace -C -G -s probes.d -o probes.o objs...`,
 * Python `dtrace -o Include/pydtrace_probes.h -h -s Include/pydtrace.d`.
 *
 * A provider definition is D:
 *
 *   provider myapp {
 *           probe request__start(int, const char *);
 *   };
 *
 * -h writes a header with, per probe, MYAPP_REQUEST_START(arg0, arg1),
 * which assigns each argument to a variable of its declared type (so
 * the compiler checks the call as it would a function's) and places
 * the probe, and MYAPP_REQUEST_START_ENABLED(), true while a tracer has
 * the probe attached.  The note keeps the name as written, as
 * SystemTap's dtrace does and as bpftrace, perf, gdb and the projects'
 * documentation name the probes (usdt:PATH:myapp:request__start);
 * sonde also accepts DTrace's spelling, request-start.  The header
 * embeds include/sonde/sdt.h, so it needs nothing installed.
 *
 * -G writes an object defining the probes' semaphores (a C file
 * compiled with $CC, default cc: programs that run dtrace -G compile C
 * anyway), and DTrace's is-enabled functions reading them.  The objects
 * named after it are rewritten where they call DTrace's probe functions
 * (dtobj.c: DTrace's <sys/sdt.h>, or headers other dtraces' -h wrote),
 * and left alone otherwise, as SystemTap's wrapper leaves them.
 *
 * -C runs the C preprocessor ($CC -E) over the .d file first, with the
 * -I, -D and -U options given; without it, lines starting with '#'
 * (#pragma D ...) are skipped.  -32, -64, -x OPT, -k and -v are
 * accepted and ignored.
 */
#include "dtrace/dtrace.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* include/sonde/sdt.h as a string, made by the Makefile */
static const char sdt_h[] =
#include "sdt_h.inc"
	;

enum { D_EOF, D_IDENT, D_PUNCT };

struct dlex {
	const char *p;
	int line;
	const char *file;
	FILE *err;
	int kind;
	char tok[128];
	int tok_line;
	bool failed;
};

static void dlex_error(struct dlex *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void dlex_error(struct dlex *l, const char *fmt, ...)
{
	va_list ap;

	if (l->failed)
		return;
	l->failed = true;
	fprintf(l->err, "%s:%d: error: ", l->file, l->tok_line);
	va_start(ap, fmt);
	vfprintf(l->err, fmt, ap);
	va_end(ap);
	fputc('\n', l->err);
}

static void next(struct dlex *l)
{
	/* the text starts after a '\n' of its own, so p[-1] is valid */
	bool line_start = l->p[-1] == '\n';

	for (;;) {
		if (*l->p == '\n') {
			l->line++;
			l->p++;
			line_start = true;
		} else if (isspace((unsigned char)*l->p)) {
			l->p++;
		} else if (line_start && *l->p == '#') {
			while (*l->p && *l->p != '\n')
				l->p++;
		} else if (l->p[0] == '/' && l->p[1] == '/') {
			while (*l->p && *l->p != '\n')
				l->p++;
		} else if (l->p[0] == '/' && l->p[1] == '*') {
			const char *e = strstr(l->p + 2, "*/");

			if (!e) {
				l->tok_line = l->line;
				dlex_error(l, "'*/' expected to close the comment");
				l->p += strlen(l->p);
				continue;
			}
			for (const char *q = l->p; q < e; q++)
				l->line += *q == '\n';
			l->p = e + 2;
			line_start = false;
		} else {
			break;
		}
	}
	l->tok_line = l->line;
	if (!*l->p) {
		l->kind = D_EOF;
		strcpy(l->tok, "end of file");
		return;
	}
	if (isalpha((unsigned char)*l->p) || *l->p == '_') {
		size_t n = 0;

		while (isalnum((unsigned char)l->p[n]) || l->p[n] == '_')
			n++;
		if (n >= sizeof(l->tok)) {
			dlex_error(l, "name too long");
			n = sizeof(l->tok) - 1;
		}
		memcpy(l->tok, l->p, n);
		l->tok[n] = 0;
		l->p += n;
		l->kind = D_IDENT;
		return;
	}
	l->kind = D_PUNCT;
	l->tok[0] = *l->p++;
	l->tok[1] = 0;
	if (!strchr("{}(),;*:", l->tok[0])) {
		if (l->tok[0] == '[')
			dlex_error(l, "array arguments are not supported: pass a pointer");
		else
			dlex_error(l, "unexpected '%c'", l->tok[0]);
	}
}

static bool is(struct dlex *l, const char *t)
{
	return l->kind != D_EOF && !strcmp(l->tok, t);
}

static bool expect(struct dlex *l, const char *t, const char *what)
{
	if (is(l, t)) {
		next(l);
		return true;
	}
	dlex_error(l, "'%s' expected %s, not '%s'", t, what, l->tok);
	return false;
}

static bool is_type_word(const char *w)
{
	static const char *const words[] = {
		"char", "short", "int", "long", "signed", "unsigned", "float",
		"double", "void", "_Bool", "bool", "const", "volatile",
		"restrict",
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/* One parameter: the tokens up to ',' or ')' as a C type; a trailing
 * parameter name (int count) is dropped. */
static const char *param(struct arena *a, struct dlex *l)
{
	char *words[32];
	int n = 0;
	char buf[512];
	size_t len = 0;

	while (!l->failed && !is(l, ",") && !is(l, ")")) {
		if (l->kind == D_EOF || (l->kind == D_PUNCT && !is(l, "*"))) {
			dlex_error(l, "')' expected to close the argument list, not '%s'",
				   l->tok);
			return NULL;
		}
		if (n == (int)ARRAY_SIZE(words)) {
			dlex_error(l, "argument type too long");
			return NULL;
		}
		words[n++] = arena_strdup(a, l->tok);
		next(l);
	}
	if (!n) {
		dlex_error(l, "an argument type expected, not '%s'", l->tok);
		return NULL;
	}
	/* "uint32_t len", "char *name": the last word names it, if the
	 * words before it still make a type */
	if (n >= 2 && (isalpha((unsigned char)words[n - 1][0]) ||
		       words[n - 1][0] == '_') &&
	    !is_type_word(words[n - 1]) && strcmp(words[n - 2], "struct") &&
	    strcmp(words[n - 2], "union") && strcmp(words[n - 2], "enum")) {
		bool type_left = false;

		for (int i = 0; i < n - 1; i++)
			if (strcmp(words[i], "const") && strcmp(words[i], "volatile") &&
			    strcmp(words[i], "restrict") && strcmp(words[i], "*"))
				type_left = true;
		if (type_left)
			n--;
	}
	for (int i = 0; i < n; i++) {
		bool star = !strcmp(words[i], "*");
		const char *sep = !i ? "" : star && strcmp(words[i - 1], "*") ? " " :
				  star ? "" : " ";

		if (len + strlen(sep) + strlen(words[i]) + 1 >= sizeof(buf)) {
			dlex_error(l, "argument type too long");
			return NULL;
		}
		len += (size_t)sprintf(buf + len, "%s%s", sep, words[i]);
	}
	return arena_strdup(a, buf);
}

/* "NAME(TYPE, ...);" after "probe", into P; PROBES are the provider's
 * probes so far. */
static void probe(struct arena *a, struct dlex *l, struct dt_probe *p,
		  const struct vec *probes, const char *prov)
{
	memset(p, 0, sizeof(*p));
	p->line = l->tok_line;
	if (l->kind != D_IDENT) {
		dlex_error(l, "a probe name expected, not '%s'", l->tok);
		return;
	}
	p->name = arena_strdup(a, l->tok);
	for (size_t i = 0; i < probes->len; i++)
		if (!strcmp(VEC_AT(probes, struct dt_probe, i).name, p->name))
			dlex_error(l, "probe %s declared twice in provider %s",
				   p->name, prov);
	next(l);
	if (!expect(l, "(", "after the probe name"))
		return;
	while (!l->failed && !is(l, ")")) {
		const char *t;

		if (p->nargs && !expect(l, ",", "between arguments"))
			return;
		t = param(a, l);
		if (!t)
			return;
		if (p->nargs == DT_MAX_ARGS) {
			dlex_error(l, "probe %s has more than %d arguments",
				   p->name, DT_MAX_ARGS);
			return;
		}
		p->types[p->nargs++] = t;
	}
	/* probe tick(void) */
	if (p->nargs == 1 && !strcmp(p->types[0], "void"))
		p->nargs = 0;
	next(l);
	/* DTrace's translated arguments, "probe p(int a, int b) : (int
	 * b, int a);": read, not kept (the note describes the native
	 * arguments, which arg0.. and args[] are) */
	if (is(l, ":")) {
		next(l);
		if (!expect(l, "(", "after ':'"))
			return;
		for (int n = 0; !l->failed && !is(l, ")"); n++)
			if ((n && !expect(l, ",", "between arguments")) ||
			    !param(a, l))
				return;
		next(l);
	}
	expect(l, ";", "after the probe's arguments");
}

int dt_parse(struct arena *a, const char *file, const char *text,
	     struct dt_provider **out, int *n, FILE *err)
{
	struct dlex l;
	struct vec provs = VEC_INIT(struct dt_provider);
	char *copy = arena_printf(a, "\n%s", text);

	memset(&l, 0, sizeof(l));
	l.p = copy + 1;
	l.line = 1;
	l.file = file;
	l.err = err;
	next(&l);
	while (!l.failed && l.kind != D_EOF) {
		struct dt_provider *pv;
		struct vec probes = VEC_INIT(struct dt_probe);
		struct dt_probe p;

		if (!is(&l, "provider")) {
			dlex_error(&l, "'provider' expected, not '%s'", l.tok);
			break;
		}
		next(&l);
		if (l.kind != D_IDENT) {
			dlex_error(&l, "a provider name expected, not '%s'", l.tok);
			break;
		}
		pv = vec_push(&provs);
		pv->name = arena_strdup(a, l.tok);
		next(&l);
		if (!expect(&l, "{", "after the provider name"))
			break;
		while (!l.failed && !is(&l, "}")) {
			if (!is(&l, "probe")) {
				dlex_error(&l, "'probe' or '}' expected, not '%s'", l.tok);
				break;
			}
			next(&l);
			probe(a, &l, &p, &probes, pv->name);
			*(struct dt_probe *)vec_push(&probes) = p;
		}
		pv->nprobes = (int)probes.len;
		pv->probes = arena_alloc(a, sizeof(struct dt_probe) * (probes.len + 1));
		if (probes.len)
			memcpy(pv->probes, probes.data, sizeof(struct dt_probe) * probes.len);
		vec_free(&probes);
		if (l.failed)
			break;
		next(&l);
		if (is(&l, ";"))
			next(&l);
	}
	if (!l.failed) {
		for (size_t i = 0; i < provs.len; i++)
			for (size_t j = 0; j < i; j++)
				if (!strcmp(VEC_AT(&provs, struct dt_provider, i).name,
					    VEC_AT(&provs, struct dt_provider, j).name)) {
					l.tok_line = 0;
					fprintf(err, "%s: error: provider %s defined twice\n",
						file, VEC_AT(&provs, struct dt_provider, i).name);
					l.failed = true;
				}
	}
	if (!l.failed && !provs.len) {
		fprintf(err, "%s: error: no provider defined\n", file);
		l.failed = true;
	}
	*n = (int)provs.len;
	*out = arena_alloc(a, sizeof(struct dt_provider) * (provs.len + 1));
	if (provs.len)
		memcpy(*out, provs.data, sizeof(struct dt_provider) * provs.len);
	vec_free(&provs);
	return l.failed ? -1 : 0;
}

/* MYAPP_REQUEST_START from myapp and request__start. */
static void macro_name(char *buf, size_t cap, const char *prov,
		       const char *probe_name)
{
	size_t n = 0;

	for (const char *s = prov; *s && n + 1 < cap; s++)
		buf[n++] = (char)toupper((unsigned char)*s);
	if (n + 1 < cap)
		buf[n++] = '_';
	for (const char *s = probe_name; *s && n + 1 < cap; s++) {
		if (s[0] == '_' && s[1] == '_')
			s++;
		buf[n++] = (char)toupper((unsigned char)*s);
	}
	buf[n] = 0;
}

static bool uses_stdint(const struct dt_provider *provs, int n)
{
	for (int i = 0; i < n; i++)
		for (int k = 0; k < provs[i].nprobes; k++)
			for (int a = 0; a < provs[i].probes[k].nargs; a++)
				if (strstr(provs[i].probes[k].types[a], "int") &&
				    strstr(provs[i].probes[k].types[a], "_t"))
					return true;
	return false;
}

void dt_write_header(FILE *f, const char *dfile, const char *guard,
		     const struct dt_provider *provs, int n)
{
	fprintf(f, "/* Generated by sonde dtrace -h from %s: do not edit. */\n",
		dfile);
	fprintf(f, "#ifndef %s\n#define %s\n\n", guard, guard);
	if (uses_stdint(provs, n))
		fputs("#include <stdint.h>\n\n", f);
	fputs(sdt_h, f);
	fputs("\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n", f);
	for (int i = 0; i < n; i++) {
		const struct dt_provider *pv = &provs[i];

		fprintf(f, "\n/* provider %s */\n", pv->name);
		for (int k = 0; k < pv->nprobes; k++) {
			const struct dt_probe *p = &pv->probes[k];
			const char *note = p->name;	/* as SystemTap writes it */
			char mac[256];

			macro_name(mac, sizeof(mac), pv->name, p->name);
			fprintf(f, "\n/* usdt:%s:%s(", pv->name, note);
			for (int a = 0; a < p->nargs; a++)
				fprintf(f, "%s%s", a ? ", " : "", p->types[a]);
			fprintf(f, ") */\n");
			fprintf(f, "SONDE_SEMAPHORE_EXTERN(%s, %s);\n", pv->name, p->name);
			/* DTrace's probe functions, for code that calls them
			 * (its <sys/sdt.h>: dtrace -G rewrites the calls),
			 * checked against the declared arguments */
			fprintf(f, "extern void __dtrace_%s___%s(", pv->name, p->name);
			for (int a = 0; a < p->nargs; a++)
				fprintf(f, "%s%s", a ? ", " : "", p->types[a]);
			fprintf(f, "%s);\nextern int __dtraceenabled_%s___%s(void);\n",
				p->nargs ? "" : "void", pv->name, p->name);
			fprintf(f, "#define %s_ENABLED() SONDE_ENABLED(%s, %s)\n",
				mac, pv->name, p->name);
			fprintf(f, "#define %s(", mac);
			for (int a = 0; a < p->nargs; a++)
				fprintf(f, "%sarg%d", a ? ", " : "", a);
			fprintf(f, ") \\\n\tdo { \\\n");
			for (int a = 0; a < p->nargs; a++) {
				const char *t = p->types[a];
				size_t tl = strlen(t);

				fprintf(f, "\t\t%s%s_sonde_t%d = (arg%d); \\\n", t,
					t[tl - 1] == '*' ? "" : " ", a, a);
			}
			for (int a = 0; a < p->nargs; a++)
				fprintf(f, "\t\t(void)_sonde_t%d; \\\n", a);
			fprintf(f, "\t\t_SONDE_SDT_%d(\"%s_%s_semaphore\", \"%s\", \"%s\"",
				p->nargs, pv->name, p->name, pv->name, note);
			for (int a = 0; a < p->nargs; a++)
				fprintf(f, ", _sonde_t%d", a);
			fprintf(f, "); \\\n\t} while (0)\n");
		}
	}
	fputs("\n#ifdef __cplusplus\n}\n#endif\n", f);
	fprintf(f, "\n#endif\n");
}

void dt_write_semaphores(FILE *f, const char *dfile,
			 const struct dt_provider *provs, int n)
{
	fprintf(f, "/* Generated by sonde dtrace -G from %s: the probes' semaphores,\n"
		" * which the kernel increments while a probe is traced. */\n", dfile);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < provs[i].nprobes; k++) {
			const char *pv = provs[i].name, *p = provs[i].probes[k].name;

			fprintf(f, "__extension__ unsigned short %s_%s_semaphore\n"
				"\t__attribute__((section(\".probes\"), used, visibility(\"hidden\")));\n",
				pv, p);
			/* DTrace's is-enabled call, in objects dtobj.c
			 * rewrote: is the probe traced? */
			fprintf(f, "int __dtraceenabled_%s___%s(void)\n"
				"{\n\treturn *(volatile unsigned short *)&%s_%s_semaphore != 0;\n}\n",
				pv, p, pv, p);
		}
}

/* argv of $CC (default cc), split at blanks, then the words of EXTRA
 * (NULL-terminated); malloc'd, free with free_argv(). */
static char **cc_argv(const char *const *extra)
{
	const char *cc = getenv("CC");
	char *copy = xstrdup(cc && *cc ? cc : "cc"), *save = NULL;
	size_t n = 0, cap = 8;
	char **v = xmalloc(sizeof(char *) * cap);

	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (n + 2 >= cap)
			v = xrealloc(v, sizeof(char *) * (cap *= 2));
		v[n++] = xstrdup(w);
	}
	free(copy);
	for (; extra && *extra; extra++) {
		if (n + 2 >= cap)
			v = xrealloc(v, sizeof(char *) * (cap *= 2));
		v[n++] = xstrdup(*extra);
	}
	v[n] = NULL;
	return v;
}

static void free_argv(char **v)
{
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

/* Run ARGV; feed it IN (if not NULL) on stdin; collect its stdout into
 * *OUT (if OUT).  Returns its exit status, or -1 if it did not run. */
static int run(char **argv, const char *in, char **out)
{
	int ip[2] = { -1, -1 }, op[2] = { -1, -1 }, st;
	pid_t pid;

	if ((in && pipe2(ip, O_CLOEXEC)) || (out && pipe2(op, O_CLOEXEC)))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (in)
			dup2(ip[0], 0);
		if (out)
			dup2(op[1], 1);
		execvp(argv[0], argv);
		fprintf(stderr, "sonde dtrace: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	if (in) {
		size_t len = strlen(in), done = 0;
		/* a compiler that exits without reading must not kill us */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);

		close(ip[0]);
		while (done < len) {
			ssize_t w = write(ip[1], in + done, len - done);

			if (w <= 0)
				break;
			done += (size_t)w;
		}
		close(ip[1]);
		signal(SIGPIPE, old);
	}
	if (out) {
		size_t len = 0, cap = 4096;
		ssize_t r;

		close(op[1]);
		*out = xmalloc(cap);
		while ((r = read(op[0], *out + len, cap - len - 1)) > 0) {
			len += (size_t)r;
			if (cap - len < 2)
				*out = xrealloc(*out, cap *= 2);
		}
		(*out)[len] = 0;
		close(op[0]);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* FILE's name without its directory and extension, plus EXT. */
static char *derived(const char *file, const char *ext)
{
	const char *base = strrchr(file, '/');
	char *s, *dot;

	s = xmalloc(strlen(file) + strlen(ext) + 1);
	strcpy(s, base ? base + 1 : file);
	dot = strrchr(s, '.');
	if (dot)
		*dot = 0;
	strcat(s, ext);
	return s;
}

static void dt_usage(FILE *f)
{
	fputs(
"usage: sonde dtrace -h -s FILE.d [-o FILE.h] [-C [-I DIR] [-D NAME[=VAL]] [-U NAME]]\n"
"       sonde dtrace -G -s FILE.d [-o FILE.o] [-C ...] [OBJECT...]\n"
"\n"
"  -h      write a C header: PROVIDER_PROBE(args...) and PROVIDER_PROBE_ENABLED()\n"
"          for each probe (named as written: request__start)\n"
"  -G      write an object defining the probes' semaphores (runs $CC, default\n"
"          cc); OBJECTs calling DTrace's probe functions (its sys/sdt.h)\n"
"          are rewritten to sonde's probes, others left as they are\n"
"  -s FILE the provider definition\n"
"  -o FILE the output (default: FILE.d's name with .h or .o, here)\n"
"  -C      run the C preprocessor over FILE.d, with -I, -D and -U\n"
"  -32, -64, -x OPT, -k, -v are accepted and ignored\n", f);
}

/* -G: rewrite the N OBJECTS that call DTrace's probe functions, then
 * compile the semaphores (and is-enabled functions) into OUTPATH; 0,
 * or -1 after saying why. */
static int write_object(const char *dfile, const char *outpath,
			char *const *objects, int n,
			const struct dt_provider *provs, int nprovs)
{
	const char *e[] = { "-c", "-fPIC", "-x", "c", "-o", outpath, "-", NULL };
	char **v;
	char *src = NULL;
	size_t cap = 4096;
	FILE *m;
	int rc = -1;

	if (dt_rewrite_objects(objects, n, provs, nprovs, stderr))
		return -1;
	m = open_memstream(&src, &cap);
	if (!m)
		return -1;
	dt_write_semaphores(m, dfile, provs, nprovs);
	fclose(m);
	v = cc_argv(e);
	if (run(v, src, NULL) != 0)
		fprintf(stderr, "sonde dtrace: compiling the semaphores of %s into %s failed\n",
			dfile, outpath);
	else
		rc = 0;
	free(src);
	free_argv(v);
	return rc;
}

int dtrace_main(int argc, char **argv)
{
	const char *dfile = NULL, *outpath = NULL;
	bool header = false, object = false, cpp = false;
	char **cpp_args = xcalloc((size_t)argc + 1, sizeof(char *));
	char **args = xcalloc((size_t)argc + 1, sizeof(char *));
	int ncpp = 0, nargs = 0, opt, rc = 1;
	char *text = NULL, *out_default = NULL;
	struct arena a = { 0 };
	struct dt_provider *provs;
	int nprovs;
	size_t len;
	FILE *f;

	/* -32 and -64 would read as -3 -2 and -6 -4 */
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			dt_usage(stdout);
			rc = 0;
			goto out;
		}
		if (strcmp(argv[i], "-32") && strcmp(argv[i], "-64"))
			args[nargs++] = argv[i];
	}
	optind = 1;
	opterr = 0;
	while ((opt = getopt(nargs, args, "hGs:o:CI:D:U:x:kvV")) != -1) {
		switch (opt) {
		case 'h': header = true; break;
		case 'G': object = true; break;
		case 's': dfile = optarg; break;
		case 'o': outpath = optarg; break;
		case 'C': cpp = true; break;
		case 'I': case 'D': case 'U':
			cpp_args[ncpp++] = arena_printf(&a, "-%c%s", opt, optarg);
			break;
		case 'x': case 'k': case 'v': break;
		case 'V':
			puts("sonde dtrace: USDT provider headers and semaphores (SystemTap dtrace compatible)");
			rc = 0;
			goto out;
		default:
			fprintf(stderr, "sonde dtrace: unknown option or missing argument: %s\n",
				args[optind - 1]);
			dt_usage(stderr);
			goto out;
		}
	}
	if (header == object || !dfile) {
		fputs(header && object ? "sonde dtrace: give -h or -G, not both\n" :
		      !dfile && (header || object) ? "sonde dtrace: no provider file: give -s FILE.d\n" :
		      "sonde dtrace: give -h (header) or -G (object)\n", stderr);
		dt_usage(stderr);
		goto out;
	}
	if (cpp) {
		const char *e[] = { "-E", "-P", "-x", "c", NULL };
		char **v = cc_argv(e);
		size_t n = 0;

		while (v[n])
			n++;
		v = xrealloc(v, sizeof(char *) * (n + (size_t)ncpp + 2));
		for (int i = 0; i < ncpp; i++)
			v[n++] = xstrdup(cpp_args[i]);
		v[n++] = xstrdup(dfile);
		v[n] = NULL;
		if (access(dfile, R_OK)) {
			fprintf(stderr, "sonde dtrace: cannot read %s: %s\n", dfile,
				strerror(errno));
			free_argv(v);
			goto out;
		}
		if (run(v, NULL, &text) != 0) {
			fprintf(stderr, "sonde dtrace: the C preprocessor failed on %s\n",
				dfile);
			free_argv(v);
			goto out;
		}
		free_argv(v);
	} else {
		int e = read_file(dfile, &text, &len);

		if (e) {
			fprintf(stderr, "sonde dtrace: cannot read %s: %s\n", dfile,
				strerror(-e));
			goto out;
		}
	}
	if (dt_parse(&a, dfile, text, &provs, &nprovs, stderr))
		goto out;
	if (!outpath)
		outpath = out_default = derived(dfile, header ? ".h" : ".o");
	if (header) {
		char guard[256];
		const char *base = strrchr(outpath, '/');
		size_t n = (size_t)snprintf(guard, sizeof(guard), "SONDE_DTRACE_%s",
					    base ? base + 1 : outpath);

		for (size_t i = 13; i < n && i < sizeof(guard); i++)
			guard[i] = isalnum((unsigned char)guard[i]) ?
				(char)toupper((unsigned char)guard[i]) : '_';
		f = fopen(outpath, "w");
		if (!f) {
			fprintf(stderr, "sonde dtrace: cannot write %s: %s\n", outpath,
				strerror(errno));
			goto out;
		}
		dt_write_header(f, dfile, guard, provs, nprovs);
		if (fclose(f)) {
			fprintf(stderr, "sonde dtrace: cannot write %s: %s\n", outpath,
				strerror(errno));
			goto out;
		}
	} else if (write_object(dfile, outpath, args + optind, nargs - optind,
				provs, nprovs)) {
		goto out;
	}
	rc = 0;
out:
	free(text);
	free(out_default);
	free(cpp_args);
	free(args);
	arena_free(&a);
	return rc;
}
