/* pp.c - the preprocessor's directives: conditionals, #include and the
 * files it reads, and kernel headers read for their constants.
 *
 * The lexer calls pp_directive() at a '#' that starts a line, wherever
 * the line is (between probes, in a block), and pp_pop() at the end of
 * an included file.  A false group of #if is skipped here, line by line.
 * An included file is read once (later inclusions reuse its text), is a
 * regular file of at most SCRIPT_MAX_SIZE bytes read without blocking,
 * and becomes a file of the diagnostics (diag.files) so that an error
 * in it shows its name, line and caret.
 *
 * System headers (<linux/sched.h>, <sys/socket.h>, <errno.h>) are not
 * read unless an -I directory has them: their types come from BTF and
 * their constants from sonde's table (catalog/kconst.c).  Where kernel
 * headers are installed, a kernel header's own integer #defines are
 * read too (nothing else of it, and not the headers it includes).
 */
#include "lang/lex_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lang/parse.h"

/* Grow an arena array *V of *CAP elements of SIZE to hold N + 1. */
static void *grow(struct lexer *lx, void *v, int n, int *cap, size_t size)
{
	void *bigger;

	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 8;
	bigger = arena_alloc(lx->arena, size * (size_t)*cap);
	if (n)
		memcpy(bigger, v, size * (size_t)n);
	return bigger;
}

/* Skip the rest of the directive's line up to its '\n' (a backslash
 * continues it, a block comment may span lines). */
static void end_line(struct lexer *lx)
{
	while (lx->p < lx->end && *lx->p != '\n') {
		if (*lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
			lx->p++;
			lex_newline(lx);
		} else if (*lx->p == '/' && lx->p + 1 < lx->end &&
			   lx->p[1] == '*') {
			lex_comment(lx);
			continue;
		} else if (*lx->p == '/' && lx->p + 1 < lx->end &&
			   lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
			break;
		}
		lx->p++;
	}
	lx->dline = false;
}

/* Skip the rest of a line that is not a directive: strings and comments
 * are skipped whole, so that neither hides or fakes a line's end. */
static void skip_text(struct lexer *lx)
{
	while (lx->p < lx->end && *lx->p != '\n') {
		char c = *lx->p;

		if (c == '\\' && lx->p + 1 < lx->end && lx->p[1] == '\n') {
			lx->p++;
			lex_newline(lx);
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			lex_comment(lx);
			continue;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
			return;
		} else if (c == '"' || c == '\'') {
			lx->p++;
			while (lx->p < lx->end && *lx->p != c && *lx->p != '\n') {
				if (*lx->p == '\\' && lx->p + 1 < lx->end &&
				    lx->p[1] != '\n')
					lx->p++;
				lx->p++;
			}
			if (lx->p >= lx->end || *lx->p == '\n')
				return;
		}
		lx->p++;
	}
}

/* Go to the next line whose first character past blanks is '#',
 * leaving lx->p there; false at the end of the buffer. */
static bool next_hash(struct lexer *lx)
{
	for (;;) {
		while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' ||
					   *lx->p == '\r' || *lx->p == '\f' ||
					   *lx->p == '\v'))
			lx->p++;
		if (lx->p + 1 < lx->end && lx->p[0] == '/' && lx->p[1] == '*') {
			lex_comment(lx);
			continue;
		}
		if (lx->p >= lx->end)
			return false;
		if (*lx->p == '#')
			return true;
		skip_text(lx);
		if (lx->p >= lx->end)
			return false;
		lex_newline(lx);
		lx->p++;
	}
}

/* The name of the directive at '#' (P), in BUF: "if", "define". */
static void directive_name(const char *p, const char *end, char *buf,
			   size_t size)
{
	size_t n = 0;

	p++;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	while (p < end && n + 1 < size &&
	       (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		buf[n++] = *p++;
	buf[n] = 0;
}

/* Skip a false group: up to the #elif, #else or #endif that ends it,
 * left for pp_directive to read (at the end of the buffer, pp_pop says
 * the #if is unterminated). */
static void skip_group(struct lexer *lx)
{
	int depth = 0;
	char name[16];

	while (next_hash(lx)) {
		directive_name(lx->p, lx->end, name, sizeof(name));
		if (!strcmp(name, "if") || !strcmp(name, "ifdef") ||
		    !strcmp(name, "ifndef")) {
			depth++;
		} else if (!strcmp(name, "endif") || !strcmp(name, "elif") ||
			   !strcmp(name, "else")) {
			if (!depth) {
				lx->bol = true;
				return;
			}
			if (!strcmp(name, "endif"))
				depth--;
		}
		skip_text(lx);
		if (lx->p >= lx->end)
			break;
		lex_newline(lx);
		lx->p++;
	}
}

static struct pp_cond *top(struct lexer *lx, struct loc at, const char *what)
{
	struct pp *pp = lx->pp;

	if (!pp->nconds || pp->conds[pp->nconds - 1].buf != pp->nbufs)
		lex_fail(lx, at, E_PREPROC, "%s without #if", what);
	return &pp->conds[pp->nconds - 1];
}

/* The conditional directive NAME (read into a buffer) as a constant. */
static const char *directive(const char *name)
{
	static const char *const names[] = {
		"if", "ifdef", "ifndef", "elif", "else",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return names[i];
	return "if";
}

/* #if, #ifdef, #ifndef: true if the group that follows is read. */
static bool open_if(struct lexer *lx, struct loc at, const char *name)
{
	struct pp *pp = lx->pp;
	struct pp_cond *c;
	bool yes;

	if (!strcmp(name, "if")) {
		yes = pp_if(lx, at);
	} else {
		struct token t;

		lex_scan(lx, &t);
		if (t.kind != T_IDENT && lx->d)
			lex_fail(lx, t.kind == T_EOF ? at : t.loc, E_PREPROC,
				 "no macro name given in #%s directive", name);
		if (t.kind != T_IDENT)
			lex_fail(lx, t.kind == T_EOF ? at : t.loc, E_PREPROC,
				 "#%s without a macro name", name);
		yes = pp_macro(lx, t.text) != NULL;
		if (!yes && pp->o->constant) {
			int64_t v;

			yes = pp->o->constant(pp->o->arg, t.text, &v);
		}
		if (!strcmp(name, "ifndef"))
			yes = !yes;
	}
	pp->conds = grow(lx, pp->conds, pp->nconds, &pp->capconds,
			 sizeof(*pp->conds));
	c = &pp->conds[pp->nconds++];
	memset(c, 0, sizeof(*c));
	c->loc = at;
	c->buf = pp->nbufs;
	c->taken = yes;
	c->name = directive(name);
	return yes;
}

/* #elif, #else, #endif: true if the group that follows is read. */
static bool next_group(struct lexer *lx, struct loc at, const char *name)
{
	struct pp_cond *c = top(lx, at, name[1] == 'n' ? "#endif" :
				name[2] == 'i' ? "#elif" : "#else");

	if (!strcmp(name, "endif")) {
		lx->pp->nconds--;
		return true;
	}
	if (c->in_else && lx->d)	/* in cpp's words, as dtrace shows them */
		lex_fail(lx, at, E_PREPROC, "#%s after #else\n/dev/stdin:%d: error: the conditional began here",
			 name, c->loc.line);
	if (c->in_else)
		lex_fail(lx, at, E_PREPROC, "#%s after #else (the #if is at %d:%d)",
			 name, c->loc.line, c->loc.col);
	c->name = directive(name);
	if (!strcmp(name, "else")) {
		c->in_else = true;
		if (c->taken)
			return false;
		c->taken = true;
		return true;
	}
	if (c->taken)
		return false;
	c->taken = pp_if(lx, at);
	return c->taken;
}

/* #error and #warning: the rest of the line is the message. */
static void message(struct lexer *lx, struct loc at, bool error)
{
	const char *s = lx->p, *e;

	while (s < lx->end && (*s == ' ' || *s == '\t'))
		s++;
	for (e = s; e < lx->end && *e != '\n'; e++)
		;
	if (error)
		lex_fail(lx, at, E_PREPROC, "#error %.*s", (int)(e - s), s);
	diag_warn(lx->diag, at, "#warning %.*s", (int)(e - s), s);
}

static void include(struct lexer *lx, struct loc at);

/* Whether A is a DTrace stability attribute triple, "Stable/Stable/
 * Common": two stability names and a dependency class. */
static bool d_attributes(const char *a)
{
	static const char *const stab[] = {
		"Internal", "Private", "Obsolete", "External", "Unstable",
		"Evolving", "Stable", "Standard",
	};
	static const char *const cls[] = {
		"Unknown", "CPU", "Platform", "Group", "ISA", "Common",
	};
	char w[3][32];
	bool ok = true;

	if (sscanf(a, "%31[^/]/%31[^/]/%31s", w[0], w[1], w[2]) != 3)
		return false;
	for (int i = 0; i < 3 && ok; i++) {
		size_t n = i < 2 ? ARRAY_SIZE(stab) : ARRAY_SIZE(cls);

		ok = false;
		for (size_t k = 0; k < n; k++)
			ok |= !strcmp(w[i], i < 2 ? stab[k] : cls[k]);
	}
	return ok;
}

int d_option_bool(const char *value)
{
	static const char *const on[] = { "yes", "true", "enable", "enabled", "on", "set" };
	static const char *const off[] = { "no", "false", "disable", "disabled", "off", "unset" };

	for (size_t i = 0; i < ARRAY_SIZE(on); i++) {
		if (!strcasecmp(value, on[i]))
			return 1;
		if (!strcasecmp(value, off[i]))
			return 0;
	}
	return -1;
}

bool d_option_on(const char *value)
{
	int b = value ? d_option_bool(value) : 1;

	return b >= 0 ? b == 1 : strtoull(value, NULL, 0) != 0;
}

/* Does VALUE suit option NAME (dtrace's runtime options take a number,
 * its sizes a number with an optional k, m, g or t)?  Options sonde
 * does not know are not checked here. */
static bool d_option_value_ok(const char *name, size_t nlen, const char *value)
{
	static const char *const numbers[] = {
		"cpu", "jstackframes", "nspec", "stackframes", "ustackframes",
		"aggsortpos", "aggsortkeypos",
	};
	static const char *const flags[] = {
		"destructive", "flowindent", "grabanon", "quiet", "rawbytes",
		"stackindent", "aggsortkey", "aggsortrev", "aggpercpu", "zdefs",
	};
	static const char *const sizes[] = {
		"aggsize", "bufsize", "dynvarsize", "jstackstrsize",
		"specsize", "strsize", "scratchsize",
	};
	bool number = false, size = false;
	unsigned long long v;
	char *end;

	for (size_t i = 0; i < ARRAY_SIZE(numbers); i++)
		number |= strlen(numbers[i]) == nlen && !strncmp(name, numbers[i], nlen);
	for (size_t i = 0; i < ARRAY_SIZE(flags); i++)
		if (strlen(flags[i]) == nlen && !strncmp(name, flags[i], nlen)) {
			/* a flag: a number or yes, true, on, set, enable(d)
			 * and their opposites, in any case */
			if (d_option_bool(value) >= 0)
				return true;
			number = true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++)
		size |= strlen(sizes[i]) == nlen && !strncmp(name, sizes[i], nlen);
	if (!number && !size)
		return true;
	errno = 0;
	v = strtoull(value, &end, 0);
	if (end == value || errno || *value == '-')
		return false;
	if (number)
		return !*end;
	if (!*end)
		return true;
	if (!strchr("kKmMgGtT", *end) || end[1])
		return false;
	return v <= ~0ULL >> (10 * (strchr("tT", *end) ? 4 : strchr("gG", *end) ? 3 :
				      strchr("mM", *end) ? 2 : 1));
}

/* D's #pragma D error and attributes, checked as dtrace's
 * preprocessing does (before the program is parsed): D_PRAGERR with
 * the words of the line, D_PRAGMA_MALFORM, D_PRAGMA_INVAL.  Whether
 * an attributes pragma names anything is dparse.c's to say. */
static void d_pragma_check(struct lexer *lx, const struct lex_pragma *pr)
{
	char w[4][64];
	int n = sscanf(pr->text, "%63s %63s %63s %63s", w[0], w[1], w[2], w[3]);

	if (n >= 1 && !strcmp(w[0], "error")) {
		char msg[512] = "#error: ";
		const char *q = pr->text + 5;

		/* each word then a space, a string's without its quotes */
		for (size_t len = strlen(msg); *q && len < sizeof(msg) - 2;) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (!*q)
				break;
			if (*q == '"') {
				for (q++; *q && *q != '"' && len < sizeof(msg) - 2; q++)
					msg[len++] = *q;
				q += *q == '"';
			} else {
				while (*q && *q != ' ' && *q != '\t' &&
				       len < sizeof(msg) - 2)
					msg[len++] = *q++;
			}
			msg[len++] = ' ';
			msg[len] = 0;
		}
		diag_fatal_d(lx->diag, pr->loc, E_PREPROC, "D_PRAGERR", "%s", msg);
	}
	if (n >= 1 && !strcmp(w[0], "option")) {
		const char *eq = n >= 2 ? strchr(w[1], '=') : NULL;
		const char *tag = NULL;
		char msg[200];

		if (n > 2) {
			tag = "D_PRAGMA_MALFORM";
			snprintf(msg, sizeof(msg),
				 "superfluous arguments specified for #pragma option");
		} else if ((eq && eq[1] == '-') ||	/* no option is negative */
			   (eq && !d_option_value_ok(w[1], (size_t)(eq - w[1]), eq + 1))) {
			tag = "D_PRAGMA_OPTSET";
			snprintf(msg, sizeof(msg),
				 "failed to set option '%.*s' to '%s': Invalid value for specified option",
				 (int)(eq - w[1]), w[1], eq + 1);
		}
		if (tag)
			diag_fatal_d(lx->diag, pr->loc, E_PREPROC, tag, "%s", msg);
	}
	if (n >= 1 && !strcmp(w[0], "attributes")) {
		const char *tag = NULL, *msg = NULL;

		if (n < 3) {
			tag = "D_PRAGMA_MALFORM";
			msg = "malformed #pragma attributes <attributes> <ident>";
		} else if (!d_attributes(w[1])) {
			tag = "D_PRAGMA_INVAL";
			msg = "invalid attributes specified by #pragma attributes";
		}
		if (tag)
			diag_fatal_d(lx->diag, pr->loc, E_PREPROC, tag, "%s", msg);
	}
}

/* #pragma once marks an included file; other pragmas mean nothing. */
static void pragma(struct lexer *lx)
{
	struct pp *pp = lx->pp;
	struct token t;

	lex_scan(lx, &t);
	if (t.kind == T_IDENT && !strcmp(t.text, "once") && lx->file > 0 &&
	    pp->byfile && pp->byfile[lx->file])
		pp->byfile[lx->file]->once = true;
	if (t.kind == T_IDENT && !strcmp(t.text, "D")) {
		/* D's pragmas: the rest of the line, for dparse.c */
		struct lex_pragma *pr = arena_alloc(lx->arena, sizeof(*pr));
		const char *s = lx->p, *e;

		while (s < lx->end && (*s == ' ' || *s == '\t'))
			s++;
		e = s;
		while (e < lx->end && *e != '\n')
			e++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		pr->text = arena_strndup(lx->arena, s, (size_t)(e - s));
		pr->loc = t.loc;
		if (!lx->pragma_tail)
			lx->pragma_tail = &lx->pragmas;
		*lx->pragma_tail = pr;
		lx->pragma_tail = &pr->next;
		d_pragma_check(lx, pr);
	}
}

void pp_directive(struct lexer *lx)
{
	struct pp *pp = lx->pp;
	struct loc at = lex_here(lx, lx->p, 1);
	bool skip = false;
	char name[32];

	directive_name(lx->p, lx->end, name, sizeof(name));
	lx->dline = true;
	lx->bol = false;
	lx->p++;
	while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t'))
		lx->p++;
	lx->p += strlen(name);
	at.len = (int)(lx->p - lx->src) - at.off;
	if (!strcmp(name, "if") || !strcmp(name, "ifdef") ||
	    !strcmp(name, "ifndef"))
		skip = !open_if(lx, at, name);
	else if (!strcmp(name, "elif") || !strcmp(name, "else") ||
		 !strcmp(name, "endif"))
		skip = !next_group(lx, at, name);
	else if (!strcmp(name, "define"))
		pp_define(lx, at);
	else if (!strcmp(name, "undef"))
		pp_undef(lx, at);
	else if (!strcmp(name, "pragma") && !pp->scan)
		pragma(lx);
	else if (pp->scan || !strcmp(name, "pragma") || !strcmp(name, "line") ||
		 !strcmp(name, "ident") || (!name[0] && (lx->p >= lx->end ||
							*lx->p == '\n')))
		;	/* kernel headers: the rest; and what C may ignore */
	else if (!strcmp(name, "include"))
		include(lx, at);	/* ends the line itself */
	else if (!strcmp(name, "error") || !strcmp(name, "warning"))
		message(lx, at, name[0] == 'e');
	else
		lex_fail(lx, at, E_PREPROC, name[0] ?
			 "unknown directive '#%s' (a comment is // or /* */)" :
			 "'#' at the start of a line begins a directive%s (a comment is // or /* */)",
			 name);
	if (lx->dline)
		end_line(lx);
	if (skip)
		skip_group(lx);
}

bool pp_pop(struct lexer *lx)
{
	struct pp *pp = lx->pp;
	struct pp_buf *b;

	if (pp->nconds && pp->conds[pp->nconds - 1].buf == pp->nbufs) {
		struct pp_cond *c = &pp->conds[pp->nconds - 1];

		if (lx->d)
			lex_fail(lx, c->loc, E_PREPROC, "unterminated #%s",
				 c->name ? c->name : "if");
		lex_fail(lx, c->loc, E_PREPROC,
			 "unterminated #if: #endif expected before the end of %s",
			 pp->nbufs ? "the file" : "the script");
	}
	if (!pp->nbufs)
		return false;
	b = &pp->bufs[--pp->nbufs];
	lx->src = b->src;
	lx->end = b->end;
	lx->p = b->p;
	lx->line_start = b->line_start;
	lx->line = b->line;
	lx->file = b->file;
	lx->bol = b->bol;
	pp->dir = b->dir;
	return true;
}

/* Read the buffer TEXT (file FILE of the diagnostics, in DIR) now; the
 * lexer comes back to the current one at its end. */
void pp_push(struct lexer *lx, const char *text, size_t len, int file,
	     const char *dir)
{
	struct pp *pp = lx->pp;
	struct pp_buf *b;

	pp->bufs = grow(lx, pp->bufs, pp->nbufs, &pp->capbufs, sizeof(*pp->bufs));
	b = &pp->bufs[pp->nbufs++];
	b->src = lx->src;
	b->end = lx->end;
	b->p = lx->p;
	b->line_start = lx->line_start;
	b->line = lx->line;
	b->file = lx->file;
	b->bol = lx->bol;
	b->dir = pp->dir;
	lx->src = lx->p = lx->line_start = text;
	lx->end = text + len;
	lx->line = 1;
	lx->file = file;
	lx->bol = true;
	pp->dir = dir;
}

/* PATH's text, at most MAX bytes (one more: the caller sees a longer
 * file), if it is a regular file: a device (/dev/zero), a FIFO or a
 * terminal is not read, nor waited for.  0 or -errno. */
static int read_regular(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	size_t n = 0, cap = 4096;
	char *buf;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	buf = xmalloc(cap);
	for (;;) {
		ssize_t r;

		if (cap - n < 2)
			buf = xrealloc(buf, cap *= 2);
		r = read(fd, buf + n, cap - n - 1 < max + 1 - n ? cap - n - 1 :
			 max + 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (n += (size_t)r) > max)
			break;
	}
	close(fd);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

/* Whether PATH lies inside the directory ROOT (the fuzz target's
 * tree); a NULL ROOT allows all. */
static bool allowed(const char *root, const char *path)
{
	char *real;
	size_t n;
	bool ok;

	if (!root)
		return true;
	real = realpath(path, NULL);
	n = strlen(root);
	ok = real && !strncmp(real, root, n) && (real[n] == '/' || !real[n]);
	free(real);
	return ok;
}

static const char *dir_of(struct lexer *lx, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	if (slash == path)
		return "/";
	return arena_strndup(lx->arena, path, (size_t)(slash - path));
}

const char *pp_join(struct lexer *lx, const char *dir, const char *name)
{
	if (name[0] == '/' || !dir || !strcmp(dir, "."))
		return arena_strdup(lx->arena, name);
	return arena_printf(lx->arena, "%s%s%s", dir,
			    dir[strlen(dir) - 1] == '/' ? "" : "/", name);
}

/* One more file for the diagnostics (slot 0 is the script), first
 * included at FROM; its index. */
int pp_add_file(struct lexer *lx, const char *name, const char *text,
		size_t len, struct loc from)
{
	struct diag *d = lx->diag;

	if (!d->nfiles)
		d->nfiles = 1;
	/* the table doubles when its length is a power of two */
	if (!(d->nfiles & (d->nfiles - 1))) {
		struct diag_file *v = arena_alloc(lx->arena, sizeof(*v) *
						  (size_t)d->nfiles * 2);

		if (d->files)
			memcpy(v, d->files, sizeof(*v) * (size_t)d->nfiles);
		d->files = v;
	}
	d->files[d->nfiles].name = name;
	d->files[d->nfiles].src = text;
	d->files[d->nfiles].len = len;
	d->files[d->nfiles].from = from;
	return d->nfiles++;
}

/* The file at PATH, read (once) and registered with the diagnostics;
 * NULL if there is no regular file there.  AT: the #include. */
struct pp_file *pp_open_file(struct lexer *lx, const char *path,
			     struct loc at)
{
	struct pp *pp = lx->pp;
	struct pp_file *f = strmap_get(&pp->files, path);
	char *text;
	size_t len;
	int err;

	if (f)
		return f;
	if (!allowed(pp->o->root, path))
		return NULL;
	err = read_regular(path, SCRIPT_MAX_SIZE, &text, &len);
	if (err == -EINVAL)
		lex_fail(lx, at, E_PREPROC, "%s is not a regular file", path);
	if (err && err != -ENOENT && err != -ENOTDIR && err != -EISDIR)
		lex_fail(lx, at, E_PREPROC, "cannot read %s: %s", path,
			 strerror(-err));
	if (err)
		return NULL;
	if (len > SCRIPT_MAX_SIZE) {
		free(text);
		lex_fail(lx, at, E_PREPROC, "%s is longer than %d bytes", path,
			 SCRIPT_MAX_SIZE);
	}
	f = arena_alloc(lx->arena, sizeof(*f));
	f->text = arena_strndup(lx->arena, text, len);
	f->len = len;
	f->dir = dir_of(lx, path);
	free(text);
	path = arena_strdup(lx->arena, path);
	f->file = pp_add_file(lx, path, f->text, len, at);
	strmap_put(&pp->files, lx->arena, path, f);
	/* byfile doubles with the diagnostics' table */
	if (!(f->file & (f->file - 1))) {
		struct pp_file **v = arena_alloc(lx->arena, sizeof(*v) *
						 (size_t)f->file * 2);

		if (pp->byfile)
			memcpy(v, pp->byfile, sizeof(*v) * (size_t)f->file);
		pp->byfile = v;
	}
	pp->byfile[f->file] = f;
	return f;
}

/* Directories whose headers are the kernel's (the first KERNEL_DIRS)
 * or the C library's. */
static const char *const system_dirs[] = {
	"linux", "asm", "asm-generic", "uapi", "net", "generated", "trace",
	"scsi", "sound", "rdma", "xen", "video", "drm", "crypto", "keys",
	"media", "misc",
	"sys", "bits", "arpa", "netinet", "netpacket", "gnu",
};
#define KERNEL_DIRS 17

/* Headers of C and POSIX a script may include for their constants. */
static const char *const system_headers[] = {
	"errno.h", "signal.h", "stdint.h", "stddef.h", "stdbool.h",
	"stdio.h", "stdlib.h", "string.h", "fcntl.h", "unistd.h", "sched.h",
	"time.h", "limits.h", "inttypes.h", "stdarg.h", "ctype.h",
	"assert.h", "features.h", "endian.h", "byteswap.h", "elf.h",
	"link.h", "dlfcn.h", "poll.h", "pthread.h", "termios.h", "netdb.h",
	"syscall.h", "locale.h", "setjmp.h", "math.h", "wchar.h", "spawn.h",
	"grp.h", "pwd.h", "dirent.h", "libgen.h", "glob.h", "fnmatch.h",
	"utmp.h", "search.h", "malloc.h", "alloca.h", "stropts.h",
};

/* The index in system_dirs of NAME's directory, or -1. */
static int system_dir(const char *name)
{
	const char *slash = strchr(name, '/');

	for (size_t i = 0; slash && i < ARRAY_SIZE(system_dirs); i++)
		if ((size_t)(slash - name) == strlen(system_dirs[i]) &&
		    !strncmp(name, system_dirs[i], (size_t)(slash - name)))
			return (int)i;
	return -1;
}

/* Whether NAME is a system header: in a directory of system_dirs, one
 * of system_headers, or (outside the fuzz target) in /usr/include. */
static bool system_header(struct lexer *lx, const char *name)
{
	const char *slash = strchr(name, '/');
	char path[PATH_MAX];

	if (system_dir(name) >= 0)
		return true;
	for (size_t i = 0; !slash && i < ARRAY_SIZE(system_headers); i++)
		if (!strcmp(name, system_headers[i]))
			return true;
	if (lx->pp->o->root || strstr(name, ".."))
		return false;
	snprintf(path, sizeof(path), "/usr/include/%s", name);
	return access(path, F_OK) == 0;
}

/* Run the directives of the buffer, skipping its text; a directive
 * sonde cannot read is skipped too (its line). */
static void run_directives(struct lexer *lx)
{
	jmp_buf env;

	for (;;) {
		lx->soft = &env;
		if (setjmp(env)) {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
			lx->dline = false;
			continue;
		}
		if (!next_hash(lx))
			break;
		pp_directive(lx);
	}
	lx->soft = NULL;
}

/* Of the macros a kernel header defined, keep those whose body is an
 * integer constant expression, as that integer (counted in *OK), and
 * drop the others (in *OTHER), bringing back what they replaced. */
static void keep_integers(struct lexer *lx, struct loc at, int *ok, int *other)
{
	struct pp *pp = lx->pp;

	for (int i = 0; i < pp->nscanned; i++) {
		struct pp_macro *m = pp->scanned[i].m;
		int64_t v;

		if (pp_macro(lx, m->name) != m)
			continue;
		if (m->nparams < 0 && !m->bad && m->nbody &&
		    pp_eval_tokens(lx, m->body, m->nbody, &v)) {
			pp_define_int(lx, m->name, v, at);
			(*ok)++;
		} else {
			strmap_put(&pp->macros, lx->arena, m->name,
				   pp->scanned[i].prev);
			(*other)++;
		}
	}
}

/* Read kernel header PATH for its integer #defines: the directives are
 * run (so its conditionals hold), the rest of its text skipped; then
 * each object-like macro it defined whose body is an integer constant
 * expression becomes that integer, and the others are dropped, so that
 * the script sees only integer constants.  Nothing of it is an error. */
static void scan(struct lexer *lx, const char *path, const char *name,
		 struct loc at)
{
	struct pp *pp = lx->pp;
	int nconds = pp->nconds, nbufs = pp->nbufs, ok = 0, other = 0;
	char *text;
	size_t len;

	if (pp->kernel >= PP_MAX_KERNEL ||
	    read_regular(path, PP_MAX_KERNEL - pp->kernel, &text, &len))
		return;
	pp->kernel += len;
	pp->nscanned = 0;
	pp_push(lx, text, len, lx->file, pp->dir);
	lx->bol = true;
	pp->scan = true;
	run_directives(lx);
	pp->scan = false;
	pp->nconds = nconds;
	pp->nbufs = nbufs + 1;
	pp_pop(lx);
	free(text);
	keep_integers(lx, at, &ok, &other);
	if (pp->o->verbose)
		fprintf(lx->diag->out,
			"sonde: <%s>: %d integer constants read from %s (%d other #defines skipped)\n",
			name, ok, path, other);
}

/* A system header no -I directory has: a kernel header is read from
 * the kernel's headers for its integer #defines if they are installed;
 * anything else is not read. */
static void system_include(struct lexer *lx, const char *name, struct loc at)
{
	const struct pp_opts *o = lx->pp->o;
	int dir = system_dir(name);

	if (dir < 0 || dir >= KERNEL_DIRS) {
		if (o->verbose)
			fprintf(lx->diag->out,
				"sonde: <%s>: not read (a C library header): its constants come from sonde's table\n",
				name);
		return;
	}
	for (int i = 0; i < o->nkdirs; i++) {
		const char *path = pp_join(lx, o->kdirs[i], name);
		struct stat st;

		if (!stat(path, &st) && S_ISREG(st.st_mode)) {
			scan(lx, path, name, at);
			return;
		}
	}
	if (o->verbose)
		fprintf(lx->diag->out,
			"sonde: <%s>: not read (a system header%s): its types come from BTF, its constants from sonde's table\n",
			name, o->nkdirs ? " the kernel headers do not have" :
			", and no kernel headers are installed");
}

/* #include NAME (ANGLE: <NAME>) at AT, from a file in DIR; WHAT names
 * the directive or option in messages. */
static void include_file(struct lexer *lx, const char *name, bool angle,
			 struct loc at, const char *dir, const char *what)
{
	struct pp *pp = lx->pp;
	const struct pp_opts *o = pp->o;
	struct pp_file *f = NULL;

	if (pp->nbufs >= PP_MAX_INCLUDE)
		lex_fail(lx, at, E_PREPROC, "#include nested deeper than %d files",
			 PP_MAX_INCLUDE);
	if (name[0] == '/')
		f = pp_open_file(lx, name, at);
	else if (!angle)
		f = pp_open_file(lx, pp_join(lx, dir, name), at);
	for (int i = 0; !f && name[0] != '/' && i < o->nincdirs; i++)
		f = pp_open_file(lx, pp_join(lx, o->incdirs[i], name), at);
	if (f && f->once && f->read)
		return;
	if (f) {
		f->read = true;
		pp->included += f->len;
		if (pp->included > PP_MAX_INCLUDED)
			lex_fail(lx, at, E_PREPROC,
				 "the included files hold more than %d bytes",
				 PP_MAX_INCLUDED);
		pp_push(lx, f->text, f->len, f->file, f->dir);
		return;
	}
	if (system_header(lx, name)) {
		system_include(lx, name, at);
		return;
	}
	if (angle)
		lex_fail(lx, at, E_PREPROC,
			 "%s <%s>: no such file in the -I directories, and not a system header",
			 what, name);
	lex_fail(lx, at, E_PREPROC,
		 !strcmp(what, "#include") ? "%s \"%s\": no such file in %s%s" :
		 "%s %s: no such file in %s%s", what, name,
		 name[0] == '/' ? "the file system" : strcmp(dir, ".") ? dir :
		 "the current directory",
		 name[0] != '/' && o->nincdirs ? " or the -I directories" : "");
}

/* #include "FILE", #include <FILE>, or #include MACRO where the macro
 * is a string. */
static void include(struct lexer *lx, struct loc at)
{
	const char *s = lx->p, *e;
	const char *name;
	struct loc nl;
	bool angle;

	while (s < lx->end && (*s == ' ' || *s == '\t'))
		s++;
	lx->p = s;
	if (s < lx->end && (*s == '"' || *s == '<')) {
		char close = *s == '"' ? '"' : '>';

		for (e = s + 1; e < lx->end && *e != close && *e != '\n'; e++)
			;
		if (e >= lx->end || *e != close)
			lex_fail(lx, lex_here(lx, s, (int)(e - s)), E_PREPROC,
				 "#include: '%c' expected to end the file name",
				 close);
		angle = close == '>';
		name = arena_strndup(lx->arena, s + 1, (size_t)(e - s - 1));
		nl = lex_here(lx, s, (int)(e - s) + 1);
		lx->p = e + 1;
	} else {
		struct token t;
		struct pp_macro *m;

		lex_scan(lx, &t);
		m = t.kind == T_IDENT ? pp_macro(lx, t.text) : NULL;
		if (!m || m->nparams >= 0 || m->bad || m->nbody != 1 ||
		    m->body[0].kind != T_STRING)
			lex_fail(lx, t.kind == T_EOF ? at : t.loc, E_PREPROC,
				 "#include expects \"FILE\" or <FILE>");
		angle = false;
		name = m->body[0].text;
		nl = t.loc;
	}
	if (!*name || strlen(name) >= PATH_MAX)
		lex_fail(lx, nl, E_PREPROC, "#include: %s file name",
			 *name ? "too long a" : "an empty");
	end_line(lx);
	include_file(lx, name, angle, nl, lx->pp->dir, "#include");
}

bool pp_constant(const struct lexer *lx, const char *name, int64_t *value)
{
	const struct pp_opts *o = lx->pp ? lx->pp->o : NULL;

	return o && ((o->enumerator && o->enumerator(o->arg, name, value)) ||
		     (o->constant && o->constant(o->arg, name, value)));
}

void pp_start(struct lexer *lx, const struct pp_opts *o)
{
	struct pp *pp = arena_alloc(lx->arena, sizeof(*pp));
	struct loc none = { 0, 0, 0, 0, 0, 0 };

	pp->o = o;
	pp->dir = o->dir ? o->dir : ".";
	lx->pp = pp;
	for (int i = 0; i < o->npredef; i++) {
		const char *eq = strchr(o->predef[i], '=');
		char *name = arena_strdup(lx->arena, o->predef[i]);

		if (eq)
			name[eq - o->predef[i]] = 0;
		pp_define_int(lx, name, eq ? strtoll(eq + 1, NULL, 0) : 1, none);
	}
	for (int i = o->nincludes - 1; i >= 0; i--) {
		if (!*o->includes[i] || strlen(o->includes[i]) >= PATH_MAX)
			lex_fail(lx, none, E_PREPROC, "--include: %s file name",
				 *o->includes[i] ? "too long a" : "an empty");
		include_file(lx, o->includes[i], false, none, ".", "--include");
	}
	if (o->defines && *o->defines) {
		size_t len = strlen(o->defines);
		int f = pp_add_file(lx, "<command line>", o->defines, len, none);

		pp_push(lx, o->defines, len, f, ".");
	}
}
