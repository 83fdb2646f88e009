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
#include "lang/parse_int.h"

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

static bool decl_word(const char *w)
{
	for (size_t i = 0; i < sizeof(decl_words) / sizeof(decl_words[0]); i++)
		if (!strcmp(w, decl_words[i]))
			return true;
	return false;
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

/* inline TYPE NAME = EXPR; : NAME is EXPR wherever it is used. */
static void inline_def(struct parser *p, struct program *prog, struct token kw)
{
	struct token name = { 0 };
	struct node *n;

	while (peek(p)->kind != T_ASSIGN) {
		struct token t = take(p);

		if (t.kind == T_EOF || t.kind == T_SEMI)
			diag_fatal(p->diag, kw.loc, E_SYNTAX,
				   "'=' expected: inline TYPE NAME = VALUE;");
		if (t.kind == T_IDENT)
			name = t;
	}
	take(p);
	if (!name.text)
		diag_fatal(p->diag, kw.loc, E_SYNTAX, "the inline has no name");
	n = mk(p, N_ASSIGN, name.loc);
	n->name = name.text;
	n->b = parse_expr(p);
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
	if (d_probe_specs(p->arena, t.text, specs, ddesc, &n, &why))
		diag_fatal(p->diag, t.loc, E_PROBE, "invalid probe description '%s': %s",
			   t.text, why);
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

struct program *d_parse_program(const char *src, size_t len, struct arena *a,
				struct diag *d, const struct pp_opts *o)
{
	static const struct pp_opts none;
	struct parser p;
	struct program *prog = arena_alloc(a, sizeof(*prog));
	struct node **tail = &prog->probes, **ttail = &prog->types;
	jmp_buf env, *saved = d->fatal;

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
	prog->d = true;
	lex_init(&p.lx, src, len, a, d);
	p.lx.d = true;
	d->fatal = &env;
	if (setjmp(env)) {
		d->fatal = saved;
		return NULL;
	}
	pp_start(&p.lx, o ? o : &none);
	for (;;) {
		struct token t;

		lex_probe(&p.lx, &t);
		if (t.kind == T_EOF)
			break;
		if (t.kind == T_SEMI)
			continue;
		if (t.kind == T_PROBE && parse_decl_start(t.text)) {
			/* struct NAME VAR; declares a variable, not a type */
			*ttail = parse_decl(&p, t);
			while (*ttail)
				ttail = &(*ttail)->next;
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "inline")) {
			inline_def(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && (decl_word(t.text) ||
					  !strcmp(t.text, "translator") ||
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
		if (!(*tail)->nargs) {	/* only ERROR: matched, never fires */
			*tail = NULL;
			continue;
		}
		tail = &(*tail)->next;
		prog->nprobes++;
	}
	d->fatal = saved;
	prog->dpragmas = p.lx.pragmas;
	prog->derror = p.derror;
	if (!prog->nprobes && !prog->derror) {
		diag_error(d, (struct loc){ .line = 1, .col = 1, .len = 1 },
			   E_SYNTAX, "the program has no probe clauses");
		return NULL;
	}
	return prog;
}
