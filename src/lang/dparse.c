/* dparse.c - the D front end's grammar: a D program's clauses,
 * declarations and pragmas into lang/'s AST.
 *
 *   program  := item*
 *   item     := clause | type-def | inline | variable-decl
 *             | translator | provider
 *   clause   := desc (',' desc)* [ '/' expr '/' ] [ '{' stmts '}' ]
 *   inline   := 'inline' type NAME '=' expr ';'
 *
 * Statements and expressions are C's, read by parse.c in D mode
 * (p->d: NAME[K, ...] is an associative array); D's names (self->x,
 * this->x, globals, execname, probefunc, ...) are lowered onto sonde's
 * maps, variables and builtins after the parse (dlower.c).  Each
 * description becomes sonde attach points through the provider map
 * (dprobe.c); its N_ATTACH keeps the D text in tyname. */
#include "lang/lex_int.h"
#include "lang/parse_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lang/dparse.h"
#include "lang/dprobe.h"

/* Words that start a D variable declaration at the top level ("int
 * x;", "self uint64_t ts;", "string names[int];"); sonde types D's
 * variables by their first assignment, so the declaration is read
 * and dropped. */
static const char *const decl_words[] = {
	"self", "this", "int", "char", "short", "long", "unsigned", "signed",
	"string", "float", "double", "void", "int8_t", "int16_t", "int32_t",
	"int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
	"uintptr_t", "size_t", "ssize_t", "uint_t", "uchar_t", "ushort_t",
	"ulong_t", "u_longlong_t", "longlong_t", "pid_t", "id_t", "uid_t",
	"gid_t", "processorid_t", "hrtime_t", "caddr_t", "boolean_t",
	"bool", "time_t", "off_t", "dev_t", "ino_t",
};

/* What D programs find defined without asking (DTrace's own D
 * library, /usr/lib/dtrace: the Solaris type names, the signal and
 * errno constants scripts use most), read before the program. */
static const char prelude[] =
	"typedef unsigned char uchar_t;\n"
	"typedef unsigned short ushort_t;\n"
	"typedef unsigned int uint_t;\n"
	"typedef unsigned long ulong_t;\n"
	"typedef unsigned long long u_longlong_t;\n"
	"typedef long long longlong_t;\n"
	"typedef long long offset_t;\n"
	"typedef unsigned long long hrtime_t;\n"
	"typedef int processorid_t;\n"
	"typedef int psetid_t;\n"
	"typedef int chipid_t;\n"
	"typedef int lgrp_id_t;\n"
	"typedef int id_t;\n"
	"typedef int boolean_t;\n"
	"typedef unsigned long uintptr_t;\n"
	"typedef long intptr_t;\n"
	"typedef char *caddr_t;\n"
	"inline int SIGHUP = 1; inline int SIGINT = 2; inline int SIGQUIT = 3;\n"
	"inline int SIGILL = 4; inline int SIGTRAP = 5; inline int SIGABRT = 6;\n"
	"inline int SIGBUS = 7; inline int SIGFPE = 8; inline int SIGKILL = 9;\n"
	"inline int SIGUSR1 = 10; inline int SIGSEGV = 11; inline int SIGUSR2 = 12;\n"
	"inline int SIGPIPE = 13; inline int SIGALRM = 14; inline int SIGTERM = 15;\n"
	"inline int SIGCHLD = 17; inline int SIGCONT = 18; inline int SIGSTOP = 19;\n"
	"inline int SIGTSTP = 20;\n"
	"inline int EPERM = 1; inline int ENOENT = 2; inline int ESRCH = 3;\n"
	"inline int EINTR = 4; inline int EIO = 5; inline int EBADF = 9;\n"
	"inline int EAGAIN = 11; inline int ENOMEM = 12; inline int EACCES = 13;\n"
	"inline int EFAULT = 14; inline int EBUSY = 16; inline int EEXIST = 17;\n"
	"inline int ENOTDIR = 20; inline int EISDIR = 21; inline int EINVAL = 22;\n"
	"inline int ENOSPC = 28; inline int EPIPE = 32; inline int ENOSYS = 38;\n";

static bool decl_word(const char *w)
{
	for (size_t i = 0; i < sizeof(decl_words) / sizeof(decl_words[0]); i++)
		if (!strcmp(w, decl_words[i]))
			return true;
	return false;
}

/* After "struct", "union" or "enum": is this "struct NAME VAR..." (a
 * variable), not a definition ("struct NAME {") or a declaration
 * ("struct NAME;")?  Read from the text, without taking tokens. */
static bool var_decl(struct lexer *lx)
{
	const char *q;

	if (lex_peek_char(lx) == '{')
		return false;
	q = lx->p;
	while (q < lx->end && (isalnum((unsigned char)*q) || *q == '_' ||
			       *q == '`'))	/* module`name */
		q++;
	while (q < lx->end && (*q == ' ' || *q == '\t' || *q == '\n'))
		q++;
	return q < lx->end && *q != '{' && *q != ';';
}

/* Skip to the ';' that ends the item (nested braces and all). */
static void skip_item(struct parser *p, struct token first)
{
	int depth = 0;

	for (;;) {
		struct token t = take(p);

		if (t.kind == T_EOF)
			diag_fatal(p->diag, first.loc, E_SYNTAX,
				   "';' expected to end the declaration");
		if (t.kind == T_LBRACE)
			depth++;
		else if (t.kind == T_RBRACE)
			depth--;
		else if (t.kind == T_SEMI && depth <= 0)
			return;
	}
}

/* A top-level variable declaration, from its first word FIRST to its
 * ';': "TYPE NAME, NAME, ...;" of a scalar type (no '*', no "[...]")
 * records each NAME with TYPE in prog->dvars, for lang/dlower.c to
 * convert what is stored into it; others ("self int x;", arrays,
 * pointers, strings) are read and dropped: sonde types those by their
 * first assignment. */
static void var_declaration(struct parser *p, struct program *prog,
			    struct token first)
{
	char type[128] = "";
	const char *names[32];
	int nnames = 0;
	bool plain = strcmp(first.text, "string");
	const char *class = !strcmp(first.text, "self") ? "self->" :
			    !strcmp(first.text, "this") ? "$this->" : "";
	struct token t = first, prev = { 0 };

	if (*class)
		t = take(p);	/* the type after self/this */
	if (*class && (t.kind == T_IDENT || t.kind == T_PROBE) && t.text &&
	    (!strcmp(t.text, "self") || !strcmp(t.text, "this")))
		diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_CLASS",
			     "only one storage class (self or this) may be given");
	if ((t.kind == T_IDENT || t.kind == T_PROBE) && t.text &&
	    (!strcmp(t.text, "long") || !strcmp(t.text, "short") ||
	     !strcmp(t.text, "signed") || !strcmp(t.text, "unsigned")) &&
	    (peek(p)->kind == T_STRUCT || peek(p)->kind == T_UNION ||
	     peek(p)->kind == T_ENUM)) {
		take(p);	/* dtrace names the line after the tag */
		if (peek(p)->kind == T_IDENT)
			take(p);
		diag_fatal_d(p->diag, peek(p)->loc, E_SYNTAX, "D_DECL_LONGINT",
			     "invalid type declaration: long and long long may only be used with integer or floating-point type");
	}
	for (;;) {
		if (t.kind == T_EOF)
			diag_fatal(p->diag, first.loc, E_SYNTAX,
				   "';' expected to end the declaration");
		if ((t.kind == T_IDENT || t.kind == T_PROBE) && t.text &&
		    strchr(t.text, '`'))
			diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_SCOPE",
				     "D scoping operator may not be used in a declaration name (%s)",
				     t.text);
		if ((t.kind == T_IDENT || t.kind == T_PROBE) && t.text &&
		    prev.kind && (!strcmp(t.text, "static") ||
				  !strcmp(t.text, "register") ||
				  !strcmp(t.text, "auto") || !strcmp(t.text, "extern")))
			diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_PARMCLASS",
				     "inappropriate storage class for a parameter: %s",
				     t.text);
		if (t.kind == T_SEMI || t.kind == T_COMMA) {
			if ((prev.kind == T_IDENT || prev.kind == T_PROBE) &&
			    prev.text) {
				if (nnames < 32)
					names[nnames++] = prev.text;
			} else {
				plain = false;
			}
			if (t.kind == T_SEMI)
				break;
		} else if (t.kind == T_LBRACKET && !strcmp(first.text, "this") &&
			   prev.text) {
			diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_LOCASSC",
				     "associative arrays may not be declared as local variables: %s",
				     prev.text);
		} else if (t.kind == T_IDENT || t.kind == T_PROBE) {
			if (prev.kind && t.text && (!strcmp(t.text, "self") ||
						    !strcmp(t.text, "this")))
				diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_CLASS",
					     "only one storage class (self or this) may be given");
			if (!nnames && (prev.kind == T_IDENT || prev.kind == T_PROBE) &&
			    prev.text &&
			    strlen(type) + strlen(prev.text) + 2 < sizeof(type)) {
				if (*type)
					strcat(type, " ");
				strcat(type, prev.text);
			}
		} else {
			plain = false;	/* '*', '[', '{', ... */
		}
		prev = t;
		t = take(p);
	}
	if (plain && (!nnames || (!*type && !*class) ||
		      !strcmp(type, "extern") ||
		      decl_word(names[nnames - 1])))	/* "int;": no name */
		diag_fatal_d(p->diag, first.loc, E_SYNTAX, "D_DECL_USELESS",
			     "useless declaration");
	if (!strcmp(first.text, "extern"))
		return;		/* a kernel variable's type: sonde has BTF's */
	if (!plain || !*type || strstr(type, "float") || strstr(type, "double") ||
	    !strcmp(type, "void") || !strcmp(type, "caddr_t"))
		return;
	for (int i = 0; i < nnames; i++) {
		struct node *v = mk(p, N_CAST, first.loc);
		const char *name = *class ? arena_printf(p->arena, "%s%s", class,
							  names[i]) : names[i];

		for (struct node *o = prog->dvars; o; o = o->next)
			if (!strcmp(o->name, name) && strcmp(o->tyname, type))
				diag_fatal_d(p->diag, first.loc, E_SCOPE, "D_DECL_IDRED",
					     "identifier redeclared: %s", names[i]);
		names[i] = name;

		v->name = names[i];
		v->tyname = arena_strdup(p->arena, type);
		v->next = prog->dvars;
		prog->dvars = v;
	}
}

/* Whether expression N names identifier NAME (an inline's value that
 * uses the inline itself). */
static bool names_ident(const struct node *n, const char *name)
{
	if (!n)
		return false;
	if (n->kind == N_BUILTIN && n->name && !strcmp(n->name, name))
		return true;
	if (names_ident(n->a, name) || names_ident(n->b, name) ||
	    names_ident(n->c, name))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (names_ident(n->args[i], name))
			return true;
	return false;
}

/* DTrace's subroutines and actions: no inline may take their names. */
static bool d_function(const char *name)
{
	static const char *const f[] = {
		"alloca", "basename", "bcopy", "breakpoint", "chill",
		"cleanpath", "clear", "commit", "copyin", "copyinstr",
		"copyinto", "copyout", "copyoutstr", "count", "denormalize",
		"dirname", "discard", "exit", "ftruncate", "htonl", "htonll",
		"htons", "index", "inet_ntoa", "inet_ntoa6", "inet_ntop",
		"jstack", "lltostr", "max", "min", "mod", "normalize", "ntohl",
		"ntohll", "ntohs", "panic", "printa", "printf", "progenyof",
		"quantize", "lquantize", "llquantize", "raise", "rand",
		"rindex", "speculate", "speculation", "stack", "stddev",
		"stop", "strchr", "strjoin", "strlen", "strrchr", "strstr",
		"strtok", "substr", "sum", "avg", "sym", "system", "tolower",
		"toupper", "trace", "tracemem", "trunc", "uaddr", "ufunc",
		"umod", "ustack", "usym", "func", "setopt", "getmajor",
		"getminor", "d_path", "link_ntop", "stringof",
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i], name))
			return true;
	return false;
}

/* inline TYPE NAME = EXPR; : NAME is EXPR wherever it is used. */
static void inline_def(struct parser *p, struct program *prog, struct token kw)
{
	struct token name = { 0 };
	char type[64] = "";
	struct node *n;

	while (peek(p)->kind != T_ASSIGN) {
		struct token t = take(p);

		if (t.kind == T_EOF || t.kind == T_SEMI)
			diag_fatal(p->diag, kw.loc, E_SYNTAX,
				   "'=' expected: inline TYPE NAME = VALUE;");
		if (t.kind == T_IDENT && name.text && !*type)
			snprintf(type, sizeof(type), "%s", name.text);
		if (t.kind == T_IDENT)
			name = t;
	}
	take(p);
	if (!name.text)
		diag_fatal(p->diag, kw.loc, E_SYNTAX, "the inline has no name");
	if (d_function(name.text))
		diag_fatal_d(p->diag, name.loc, E_SCOPE, "D_DECL_IDRED",
			     "identifier redefined: %s\n\t current: inline definition\n\tprevious: function ",
			     name.text);
	for (struct node *o = prog->dinlines; o; o = o->next)
		if (!strcmp(o->name, name.text))
			diag_error_d(p->diag, name.loc, E_SCOPE, "D_DECL_IDRED",
				     "identifier redefined: %s\n\t current: inline definition\n\tprevious: scalar inline",
				     name.text);
	n = mk(p, N_ASSIGN, name.loc);
	n->name = name.text;
	n->b = parse_expr(p);
	if (names_ident(n->b, name.text))
		diag_fatal_d(p->diag, name.loc, E_UNDEF, "D_IDENT_UNDEF",
			     "failed to resolve %s: Unknown variable name",
			     name.text);
	/* an integer inline given a string, a string one a number */
	if (*type && ((n->b->kind == N_STR && strcmp(type, "string")) ||
		      (n->b->kind == N_INT && !strcmp(type, "string"))))
		diag_fatal_d(p->diag, name.loc, E_TYPE, "D_OP_INCOMPAT",
			     "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
			     name.text, type,
			     n->b->kind == N_STR ? "string" : "int");
	expect(p, T_SEMI, "';' expected after the inline's value");
	n->next = prog->dinlines;
	prog->dinlines = n;
}

/* dtrace:::ERROR, ERROR: the probe of run-time errors. */
static bool error_probe(const char *d)
{
	return !strcmp(d, "ERROR") || !strcmp(d, ":::ERROR") ||
	       !strcmp(d, "dtrace:::ERROR") || !strcmp(d, "::ERROR") ||
	       !strcmp(d, ":ERROR");
}

/* One description's attach points into L (none for ERROR: sonde's
 * run-time errors are reported, not handed to a probe). */
static void desc(struct parser *p, struct list *l, struct token t)
{
	const char *specs[D_SPECS_MAX], *ddesc[D_SPECS_MAX], *why = NULL;
	int n;

	if (error_probe(t.text)) {
		p->derror++;
		return;
	}
	if (d_probe_specs(p->arena, t.text, specs, ddesc, &n, &why)) {
		int colons = 0;

		if (p->zdefs)	/* -Z */
			return;
		for (const char *c = t.text; *c; c++)
			colons += *c == ':';
		/* as dtrace names it: every field, the missing ones empty */
		diag_fatal(p->diag, t.loc, E_PROBE,
			   "probe description %.*s%s does not match any probes",
			   colons < 3 ? 3 - colons : 0, ":::", t.text);
	}
	for (int i = 0; i < n; i++) {
		struct node *ap = mk(p, N_ATTACH, t.loc);

		ap->name = specs[i];
		ap->tyname = ddesc[i];
		list_add(p, l, ap);
	}
}

static struct node *clause(struct parser *p, struct token first)
{
	struct node *pr = mk(p, N_PROBE, first.loc);
	struct list l = { 0 };
	struct token t = first;

	for (;;) {
		desc(p, &l, t);
		if (p->have_tok ? peek(p)->kind != T_COMMA :
		    lex_peek_char(&p->lx) != ',')
			break;
		take(p);
		p->have_tok = 0;
		lex_probe(&p->lx, &t);
		if (t.kind != T_PROBE) {
			p->tok = t;
			p->have_tok = 1;
			unexpected(p, "probe description expected after ','");
		}
	}
	pr->args = l.v;
	pr->nargs = l.n;
	/* without a predicate or actions, the next clause may follow:
	 * its description is no ordinary token */
	if (!p->have_tok && lex_peek_char(&p->lx) != '/' &&
	    lex_peek_char(&p->lx) != '{') {
		pr->b = mk(p, N_BLOCK, pr->loc);
		if (lex_peek_char(&p->lx) == ';')
			take(p);
		return pr;
	}
	if (peek(p)->kind == T_SLASH) {
		take(p);
		p->in_pred = 1;
		pr->a = parse_expr(p);
		p->in_pred = 0;
		expect(p, T_SLASH, "'/' expected to end the predicate");
	}
	if (peek(p)->kind == T_LBRACE) {
		pr->b = parse_block(p, "the clause");
	} else {
		/* no actions: the default one, the probe's line */
		pr->b = mk(p, N_BLOCK, pr->loc);
		accept(p, T_SEMI);
	}
	return pr;
}
/* #pragma D attributes ATTR IDENT of an identifier the program does
 * not define as an inline: D_PRAGMA_UNUSED, as dtrace says (attributes
 * of a provider, "ATTR provider NAME ...", are taken as given). */
static void unused_attributes(struct diag *d, struct program *prog)
{
	for (struct lex_pragma *pr = prog->dpragmas; pr; pr = pr->next) {
		char w[3][64];
		bool known = false;

		if (sscanf(pr->text, "%63s %63s %63[^; \t]", w[0], w[1], w[2]) != 3 ||
		    strcmp(w[0], "attributes") || !strcmp(w[2], "provider"))
			continue;
		for (struct node *o = prog->dinlines; o; o = o->next)
			known |= !strcmp(o->name, w[2]);
		if (!known)
			diag_error_d(d, pr->loc, E_PREPROC, "D_PRAGMA_UNUSED",
				     "unused #pragma attributes");
	}
}


struct program *d_parse_program(const char *src, size_t len, struct arena *a,
				struct diag *d, const struct pp_opts *o)
{
	static const struct pp_opts none;
	struct parser p;
	struct program *prog = arena_alloc(a, sizeof(*prog));
	struct node **tail = &prog->probes, **ttail = &prog->types;
	jmp_buf env, *saved = d->fatal;
	int items = 0;

	if (len > SCRIPT_MAX_SIZE) {
		diag_error(d, (struct loc){ .line = 1, .col = 1, .len = 1 },
			   E_LIMIT, "the program is larger than %d bytes",
			   SCRIPT_MAX_SIZE);
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	p.arena = a;
	p.diag = d;
	p.d = true;
	p.zdefs = o && o->dzdefs;
	prog->d = true;
	lex_init(&p.lx, src, len, a, d);
	p.lx.d = true;
	d->fatal = &env;
	if (setjmp(env)) {
		d->fatal = saved;
		return NULL;
	}
	pp_start(&p.lx, o ? o : &none);
	{
		/* line -1: nobody's include, no "included here" note */
		struct loc at = { -1, 0, 0, 0, 0, 0 };
		int file = pp_add_file(&p.lx, "dtrace/prelude.d", prelude,
				       sizeof(prelude) - 1, at);

		pp_push(&p.lx, prelude, sizeof(prelude) - 1, file, ".");
	}
	for (;;) {
		struct token t;

		lex_probe(&p.lx, &t);
		if (t.kind == T_EOF)
			break;
		if (t.kind == T_SEMI)
			continue;
		items += t.loc.file == 0;	/* the program's, not the prelude's */
		if (t.kind == T_PROBE && parse_decl_start(t.text) &&
		    strcmp(t.text, "typedef") && var_decl(&p.lx)) {
			/* struct NAME VAR; declares a variable, not a type */
			skip_item(&p, t);
			continue;
		}
		if (t.kind == T_PROBE && parse_decl_start(t.text)) {
			*ttail = parse_decl(&p, t);
			while (*ttail)
				ttail = &(*ttail)->next;
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "inline")) {
			inline_def(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && (!strcmp(t.text, "register") ||
					  !strcmp(t.text, "auto") ||
					  !strcmp(t.text, "static")))
			diag_fatal_d(d, t.loc, E_SYNTAX, "D_DECL_BADCLASS",
				     "specified storage class not appropriate in D");
		if (t.kind == T_PROBE && (decl_word(t.text) ||
					  !strcmp(t.text, "extern"))) {
			var_declaration(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && (!strcmp(t.text, "translator") ||
					  !strcmp(t.text, "provider"))) {
			skip_item(&p, t);
			continue;
		}
		if (t.kind != T_PROBE) {
			p.tok = t;
			p.have_tok = 1;
			if (t.kind == T_RBRACE)
				diag_fatal(d, t.loc, E_SYNTAX,
					   "'}' without a matching '{'");
			unexpected(&p, "probe description expected");
		}
		*tail = clause(&p, t);
		if (!(*tail)->nargs) {	/* only ERROR (matched, never fires),
					 * or nothing it names exists (-Z) */
			*tail = NULL;
			continue;
		}
		tail = &(*tail)->next;
		prog->nprobes++;
	}
	d->fatal = saved;
	prog->dpragmas = p.lx.pragmas;
	unused_attributes(d, prog);
	prog->derror = p.derror;
	if (!items) {
		int lines = 1;

		for (size_t i = 0; i < len; i++)
			lines += src[i] == '\n';
		/* dtrace's place for it: the line after the last */
		diag_error_d(d, (struct loc){ .line = lines, .col = 1, .len = 1 },
			     E_SYNTAX, "D_EMPTY", "empty D program translation unit");
		return NULL;
	}
	return prog;
}

bool d_index(struct parser *p, struct node **np)
{
	struct node *n = *np;
	struct token *t = peek(p);

	if (n->kind == N_MAP && n->name[0] == '@') {
		/* @a[i][j]: sema reports it (D_AGG_MDIM), after what
		 * the rest of the statement may hold (dtrace's order) */
		struct node extra = *n;

		parse_map_keys(p, &extra);
		n->ival = 2;
		return true;
	}
	if (n->kind == N_FIELD && n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "this"))
		diag_fatal_d(p->diag, t->loc, E_SYNTAX, "D_ARR_LOCAL",
			     "local variables may not be used as associative arrays: this->%s",
			     n->name);
	if (n->kind == N_FIELD && n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "self")) {
		n->name = arena_printf(p->arena, "self->%s", n->name);
		n->a = NULL;
		n->op = 0;
		n->ival = 1;
	} else if (n->kind != N_BUILTIN) {
		return false;
	}
	parse_map_keys(p, n);
	n->kind = N_MAP;
	return true;
}
