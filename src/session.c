/* session.c - one run of sonde from a parsed command line: the script
 * read, compiled (compile.c), then listed, dumped or run (run/), for
 * sonde's command line and dtrace(1)'s alike.  Errors become messages
 * here and in the command lines, nowhere below. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "lang/pp.h"
#include "compile.h"
#include "config.h"
#include "options.h"
#include "serve.h"
#include "bpf/asm.h"
#include "lang/dprobe.h"
#include "lang/parse.h"
#include "run/tracer.h"

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

/* The script's text (malloc'd) and the name diagnostics give it. */
static int read_script(const struct options *o, char **src, size_t *len,
		       const char **name)
{
	int rc;

	if (o->prog_text) {
		*len = o->prog_len ? o->prog_len : strlen(o->prog_text);
		*src = xmalloc(*len + 1);
		memcpy(*src, o->prog_text, *len);
		(*src)[*len] = 0;
		*name = o->prog_name ? o->prog_name : "-e";
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

/* D's string size: -x strsize or #pragma D option strsize (a size,
 * k, m, g and t allowed), 256 unless said, as dtrace's, at most 1024. */
static int d_strsize(const struct options *o)
{
	return o->dt_strsize <= 0 ? 256 : o->dt_strsize < 1024 ? o->dt_strsize : 1024;
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
	/* D has one dialect: today's defaults, but no limit on probes
	 * (dtrace has none; pid$target::: is thousands of functions,
	 * attached as one uprobe_multi link) */
	if (set_dialect(c, o->lang_d ? "0.26" : o->dialect))
		return -1;
	if (o->lang_d)
		c->max_probes = 1 << 30;
	if (config_env(c))
		return -1;
	c->verbose = o->verbose;
	c->lang_d = o->lang_d;
	c->dt_quiet = o->quiet;
	c->dt_defaultargs = o->dt_defaultargs;
	c->dt_argref = o->dt_argref;
	if (o->lang_d)
		c->strlen_ = d_strsize(o);
	c->dt_zdefs = o->zero_ok;
	if (o->lang_d && o->zero_ok)
		c->missing_probes = 2;	/* -Z: what matches nothing, ignored */
	c->dt_nspec = o->nspec;
	c->dt_scratchsize = o->scratchsize ? o->scratchsize : 256;
	c->diag.d = o->lang_d;
	c->diag.errtags = o->errtags;
	c->diag.dwhat = o->dt_what;
	c->target_pid = o->target_pid;
	c->has_command = o->command != NULL;
	c->command = o->command;
	c->unsafe = o->unsafe;
	if (o->probe_filter)
		c->probe_filter = &o->filter_re;
	/* as if the kernel had said no */
	c->kprobe_multi_checked |= o->no_kprobe_multi;
	c->uprobe_multi_checked |= o->no_uprobe_multi;
	c->no_syscall_mux = o->no_syscall_mux;
	c->no_tracepoint_raw = o->no_tracepoint_raw;
	c->run_mode = o->mode;
	c->check_helpers = o->check_helpers;
	c->hist_sums = o->metrics != NULL;
	c->diag.no_warnings = o->no_warnings;
	c->params = o->params;
	c->nparams = o->nparams;
	c->named = o->named;
	c->nnamed = o->nnamed;
	c->incdirs = o->incdirs;
	c->nincdirs = o->nincdirs;
	c->includes = o->includes;
	c->nincludes = o->nincludes;
	c->pp_defines = o->defines;
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
	/* sonde serve: the user's restrictions */
	if (o->serve && serve_setup_compiler(o->serve, c))
		return -1;
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

/* dtrace -l: the probes the descriptions match, DTrace's columns. */
static void d_list(struct compiler *c, bool verbose)
{
	/* a probe made of two tracepoints (proc:::exec: execve's and
	 * execveat's) is listed once */
	struct strmap seen = { 0 };
	/* a process's probes are named with its id (pid1234): -c's
	 * command is started, stopped at its exec, as dtrace does */
	int pid = c->target_pid, child = -1;

	printf("%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE",
	       "FUNCTION", "NAME");
	for (struct node *p = c->ast->probes; p; p = p->next) {
		for (int i = 0; i < p->nargs; i++) {
			struct probe_spec *ps;
			int n;

			if (probe_expand(c, p->args[i], &ps, &n, NULL))
				continue;
			for (int k = 0; k < n; k++) {
				const char *f[4], *key;
				int id = ps[k].tp_id ? ps[k].tp_id :
					 !strcasecmp(ps[k].name, "BEGIN") ? 1 :
					 !strcasecmp(ps[k].name, "END") ? 2 : 3;

				if (k && !strcmp(ps[k].name, ps[k - 1].name))
					continue;
				ps[k].ddesc = p->args[i]->tyname;
				for (int j = 0; j < 4; j++)
					f[j] = probe_d_field(&c->arena, &ps[k], j);
				if (!strncmp(ps[k].name, "usdt:", 5) ||
				    !strncmp(ps[k].name, "uprobe:", 7) ||
				    !strncmp(ps[k].name, "uretprobe:", 10)) {
					if (!pid && c->has_command && child < 0)
						pid = child = rt_spawn_stopped(c->command);
					if (pid > 0)
						f[0] = arena_printf(&c->arena, "%s%d", f[0], pid);
				}
				key = arena_printf(&c->arena, "%s:%s:%s:%s",
						   f[0], f[1], f[2], f[3]);
				if (strmap_get(&seen, key))
					continue;
				strmap_put(&seen, &c->arena, key, (void *)key);
				printf("%5d %10s %17s %33s %s\n", id, f[0], f[1],
				       f[2], f[3]);
				if (verbose)
					d_probe_describe(stdout, f[0], f[3]);
			}
		}
	}
	rt_end_stopped(child);
	fflush(stdout);
}

/* The compile's end for what does not run: -l, --dump.  -1 to go on
 * and run, else the exit status. */
static int inspect(const struct options *o, struct compiler *c)
{
	if (o->list && o->lang_d) {
		d_list(c, o->verbose);
		return 0;
	}
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
	/* sonde serve: the probes and maps against the user's policy */
	if (o->serve && serve_check_program(o->serve, c))
		return 1;
	if (o->stages & D_BPF)
		for (int i = 0; i < c->nprogs; i++)
			asm_dump(stdout, c, &c->progs[i]);
	if (o->dump) {
		/* "none": dtrace -e, compiled and no more */
		for (int i = 0; strcmp(o->dump, "none") && i < c->nprogs; i++)
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

/* D's -x bufsize or specsize too small for any record, or an -x aggsize
 * smaller than one row of an aggregation: dtrace then cannot enable
 * tracing (EDT_BUFTOOSMALL). */
static bool buffers_too_small(const struct options *o,
			      const struct compiler *c)
{
	/* no record fits below the perf header and its size word, dtrace's
	 * own overhead (8 + 4 bytes), in the principal buffer or in a
	 * speculation's */
	if ((o->bufsize >= 0 && o->bufsize < 12) ||
	    (o->specsize_set && o->specsize < 12))
		return true;
	for (int i = 0; o->aggsize >= 0 && i < c->nmaps; i++) {
		const struct mapinfo *m = c->maps[i];

		if (m->agg != AGG_NONE &&
		    o->aggsize < (long)m->key_size + m->value_size)
			return true;
	}
	return false;
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
	t->pr.debug_info = t->c->show_debug_info;
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
	t->pr.prom_prefix = o->metrics_prefix;
	t->pr.color = o->format == OUT_TEXT && isatty(fileno(out)) &&
		      !getenv("NO_COLOR");
	t->buffered = o->buffering >= 0;
	t->quiet = o->quiet;
	t->pr.dtrace = o->lang_d;
	t->pr.dt_testing = o->dt_testing;
	t->pr.dt_quiet = o->quiet;
	t->pr.dt_sort.key = o->dt_aggsortkey;
	t->pr.dt_sort.rev = o->dt_aggsortrev;
	t->pr.dt_sort.pos = o->dt_aggsortpos;
	t->pr.dt_sort.keypos = o->dt_aggsortkeypos;
	t->dt_what = o->dt_what;
	t->specsize = o->specsize;
	t->dt_buftoosmall = o->lang_d && buffers_too_small(o, t->c);
	t->dt_droptags = o->dt_droptags;
	/* bufpolicy=fill: tracing stops once the records would fill the
	 * principal buffer (dtrace's default bufsize, 4 MiB) */
	t->dt_fill_left = !o->dt_fill ? 0 : o->bufsize > 0 ? o->bufsize :
			  4L << 20;
	t->dt_name = t->c->diag.file;
	/* dtrace names a -n program by its description, up to its
	 * predicate or actions */
	if (o->dt_what && !strcmp(o->dt_what, "description"))
		t->dt_name = arena_strndup(&t->c->arena, t->dt_name,
					   strcspn(t->dt_name, "{/;"));
	t->dt_extra = t->c->ast->derror;
	t->verbose = o->verbose;
	t->no_warnings = o->no_warnings;
	t->target_pid = o->target_pid;
	t->command = o->command;
	t->dwarf_pids = o->dwarf_pids;
	t->ndwarf_pids = o->ndwarf_pids;
	return 0;
}

/* -d libbpf: everything libbpf says, debug messages too. */
static int __attribute__((format(printf, 2, 0)))
libbpf_say(enum libbpf_print_level level, const char *fmt,
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
		    (!o->metrics || o->dry_run ||
		     rt_metrics_start(t, o->metrics) == 0) &&
		    ((o->dry_run && t->c->dialect_017) || rt_run(t) == 0))
			rc = t->exit_code;
	}
	if (t->err)	/* before the slow close of the perf events */
		fprintf(stderr, "%s: %s\n", o->lang_d ? "dtrace" : "sonde",
			t->err);
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

/* DTrace's sizes: a number with an optional k, m, g or t; -1 if not. */
static long dsize(const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	int shift = 0;

	if (end == v || n < 0)
		return -1;
	switch (*end | 0x20) {
	case 'k': shift = 10; break;
	case 'm': shift = 20; break;
	case 'g': shift = 30; break;
	case 't': shift = 40; break;
	default: if (*end) return -1;
	}
	if (*end && end[1])
		return -1;
	if (n > (LONG_MAX >> shift))
		return -1;
	return n << shift;
}

int options_d_spec(struct options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	long v;

	if (!strcmp(arg, "aggsortrev") ||
	    (!strncmp(arg, "aggsortrev=", 11) && d_option_on(arg + 11))) {
		o->dt_aggsortrev = true;
		return 1;
	}
	if (!strncmp(arg, "aggsortpos=", 11) ||
	    !strncmp(arg, "aggsortkeypos=", 14)) {
		char *end;
		long n = strtol(eq + 1, &end, 10);

		if (end == eq + 1 || *end || n < 0 || n > INT32_MAX) {
			fprintf(stderr, "dtrace: failed to set -x %.*s: Invalid value for specified option\n",
				(int)(eq - arg), arg);
			return -1;
		}
		*(arg[7] == 'p' ? &o->dt_aggsortpos : &o->dt_aggsortkeypos) = (int)n;
		return 1;
	}
	if (!strncmp(arg, "bufpolicy=", 10)) {
		if (strcmp(arg + 10, "fill") && strcmp(arg + 10, "switch") &&
		    strcmp(arg + 10, "ring")) {
			fprintf(stderr, "dtrace: failed to set -x bufpolicy: Invalid value for specified option\n");
			return -1;
		}
		o->dt_fill = !strcmp(arg + 10, "fill");
		return 1;
	}
	if (!strncmp(arg, "bufsize=", 8) || !strncmp(arg, "aggsize=", 8)) {
		v = dsize(eq + 1);
		if (v < 0) {
			fprintf(stderr, "dtrace: failed to set -x %.7s: Invalid value for specified option\n",
				arg);
			return -1;
		}
		*(arg[0] == 'b' ? &o->bufsize : &o->aggsize) = v;
		return 1;
	}
	if (strncmp(arg, "nspec=", 6) && strncmp(arg, "specsize=", 9) &&
	    strncmp(arg, "scratchsize=", 12) && strncmp(arg, "strsize=", 8))
		return 0;
	v = dsize(eq + 1);
	if (arg[1] == 't') {	/* strsize */
		if (v < 1) {
			fprintf(stderr, "dtrace: failed to set -x strsize: Invalid value for specified option\n");
			return -1;
		}
		o->dt_strsize = v < 1024 ? (int)v : 1024;
		return 1;
	}
	if (arg[1] == 'c') {	/* scratchsize: D's alloca() memory */
		if (v < 1 || v > 65536) {
			fprintf(stderr, "dtrace: failed to set -x scratchsize: Invalid value for specified option\n");
			return -1;
		}
		o->scratchsize = v;
		return 1;
	}
	if (arg[0] == 's' && v == 0) {	/* said when tracing starts */
		o->specsize = 0;
		o->specsize_set = true;
		return 1;
	}
	if (arg[0] == 'n' ? v < 1 || v > SPEC_MAX : v < 1) {
		fprintf(stderr, "dtrace: failed to set -x %.*s: Invalid value for specified option\n",
			(int)(eq - arg), arg);
		return -1;
	}
	if (arg[0] == 'n') {
		o->nspec = (int)v;
	} else {
		o->specsize = v;
		o->specsize_set = true;
	}
	return 1;
}

/* #pragma D option NAME[=VALUE] as -x NAME[=VALUE]; the other D
 * pragmas (attributes, binding, depends_on) say nothing sonde uses. */
static int d_pragmas(struct options *o, struct compiler *c)
{
	for (struct lex_pragma *p = c->ast->dpragmas; p; p = p->next) {
		const char *v = p->text;

		if (strncmp(v, "option", 6) || (v[6] != ' ' && v[6] != '\t'))
			continue;
		v += 7;
		while (*v == ' ' || *v == '\t')
			v++;
		if (!strcmp(v, "quiet") ||
		    (!strncmp(v, "quiet=", 6) && d_option_on(v + 6)))
			o->quiet = true;
		else if (!strncmp(v, "destructive", 11))
			o->unsafe = c->unsafe = true;
		else if (!strcmp(v, "aggsortkey"))
			o->dt_aggsortkey = true;
		else if (!strcmp(v, "argref"))
			c->dt_argref = true;
		else if (!strcmp(v, "droptags"))
			o->dt_droptags = true;
		else if (options_d_spec(o, v) < 0)
			return -1;
	}
	c->dt_nspec = o->nspec;
	c->dt_scratchsize = o->scratchsize ? o->scratchsize : 256;
	c->strlen_ = d_strsize(o);
	return 0;
}

void options_free(struct options *o)
{
	free(o->incdirs);
	free(o->dwarf_pids);
	free(o->includes);
	free(o->params);
	if (o->probe_filter)
		regfree(&o->filter_re);
	free(o->named);
	free(o->dopts);
	free(o->defines);
}

int session_run(struct options *o)
{
	struct compiler c;
	struct tracer t;
	const char *name;
	bool tracing = false;
	char *src = NULL;
	size_t len;
	int rc;

	if (read_script(o, &src, &len, &name)) {
		options_free(o);
		return 1;
	}
	rc = 1;
	if (setup_compiler(&c, o, name, src, len) || compile(&c, COMPILE_PARSE))
		goto out;
	if (o->lang_d && d_pragmas(o, &c))
		goto out;
	/* sonde serve: #pragma D option destructive gives no more than
	 * the policy does */
	if (o->serve && !o->serve->pol.unsafe)
		o->unsafe = c.unsafe = false;
	/* D: declarations only (a provider file, inlines): nothing to
	 * enable, as dtrace says */
	if (o->lang_d && !c.ast->nprobes && !c.ast->derror && !o->list) {
		fputs("dtrace: no probes matched\n", stderr);
		goto out;
	}
	/* A script that will run has its ring buffer made while it
	 * compiles: that is most of its start. */
	if (!o->list && !o->dump) {
		tracer_init(&t, &c, stdout);
		rt_ringbuf_start(&t, probe_quiet(c.ast) && !o->check_helpers,
				 o->rb_bytes, c.rb_pages);
		tracing = true;
	}
	if (compile(&c, COMPILE_CHECK))
		goto out;
	rc = inspect(o, &c);
	if (rc < 0) {
		tracing = false;
		rc = trace(o, &t);
	}
out:
	if (tracing)
		tracer_close(&t);
	compiler_free(&c);
	free(src);
	options_free(o);
	return rc;
}
