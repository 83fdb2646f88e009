/* pp_macro.c - macros: #define and #undef, their expansion in the
 * lexer's token stream, and the integer expressions of #if.
 *
 * Expansion follows C at the token level: an identifier naming an
 * object-like macro becomes its body; one naming a function-like macro
 * and followed by '(' takes its arguments, each expanded on its own
 * first, and becomes its body with the parameters replaced.  The result
 * is read again for more macros, except that a token never expands a
 * macro it came from (its "hide" list), so recursive definitions stop.
 * Tokens of a body carry the location of the macro's use, those of an
 * argument their own, so carets point into the script.  '#' and '##'
 * are not supported: a body holding them is an error where it is used.
 */
#include "lang/lex_int.h"

#include <string.h>

/* A growable token array in the arena. */
struct toks {
	struct token *v;
	int n, cap;
};

static void toks_add(struct lexer *lx, struct toks *l, const struct token *t)
{
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		struct token *v = arena_alloc(lx->arena, sizeof(*v) * (size_t)cap);

		if (l->n)
			memcpy(v, l->v, sizeof(*v) * (size_t)l->n);
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = *t;
}

struct pp_macro *pp_macro(struct lexer *lx, const char *name)
{
	return strmap_get(&lx->pp->macros, name);
}

/* The span from A to B when both are on one line of one file. */
static struct loc span(struct loc a, struct loc b)
{
	if (a.file == b.file && a.line == b.line && b.off + b.len > a.off)
		a.len = b.off + b.len - a.off;
	return a;
}

/* The name after #define or #undef. */
static struct token macro_name(struct lexer *lx, struct loc at,
			       const char *what)
{
	struct token t;

	lex_scan(lx, &t);
	if (t.kind == T_EOF && lx->d)	/* cpp's words, as dtrace shows them */
		lex_fail(lx, span(at, t.loc), E_PREPROC,
			 "no macro name given in %s directive", what);
	if (t.kind == T_EOF)
		lex_fail(lx, span(at, t.loc), E_PREPROC, "%s without a macro name", what);
	if (t.kind != T_IDENT)
		lex_fail(lx, t.loc, E_PREPROC,
			 "macro name expected after %s, found '%.*s'", what,
			 t.loc.len > 40 ? 40 : t.loc.len, lx->src + t.loc.off);
	if (!strcmp(t.text, "defined"))
		lex_fail(lx, t.loc, E_PREPROC, "'%s' cannot be a macro name", t.text);
	return t;
}

/* (a, b, ...) of a function-like #define, the '(' read. */
static void params(struct lexer *lx, struct pp_macro *m)
{
	const char *names[256];
	struct token t;
	int n = 0;

	lex_scan(lx, &t);
	while (t.kind != T_RPAREN || n) {
		if (t.kind == T_DOT || t.kind == T_DOTDOT) {
			/* '...' lexes as '..' '.' */
			int dots = t.kind == T_DOT ? 1 : 2;

			while (dots < 3) {
				lex_scan(lx, &t);
				dots += t.kind == T_DOT ? 1 :
					t.kind == T_DOTDOT ? 2 : 9;
				if (dots > 3)
					lex_fail(lx, t.loc, E_PREPROC,
						 "%s: '...' expected", m->name);
			}
			t.text = "__VA_ARGS__";
		} else if (t.kind != T_IDENT) {
			lex_fail(lx, t.loc, E_PREPROC,
				 "%s: parameter name expected", m->name);
		}
		for (int i = 0; i < n; i++)
			if (!strcmp(names[i], t.text))
				lex_fail(lx, t.loc, E_PREPROC,
					 "parameter '%s' given twice", t.text);
		if (n == (int)ARRAY_SIZE(names))
			lex_fail(lx, t.loc, E_PREPROC,
				 "%s: more than 256 parameters", m->name);
		names[n++] = t.text;
		lex_scan(lx, &t);
		if (t.kind == T_RPAREN)
			break;
		if (!strcmp(names[n - 1], "__VA_ARGS__"))
			lex_fail(lx, t.loc, E_PREPROC,
				 "%s: ')' expected after '...'", m->name);
		if (t.kind != T_COMMA)
			lex_fail(lx, t.loc, E_PREPROC,
				 "%s: ',' or ')' expected in the parameter list",
				 m->name);
		lex_scan(lx, &t);
	}
	m->nparams = n;
	m->params = arena_alloc(lx->arena, sizeof(char *) * (size_t)(n ? n : 1));
	memcpy(m->params, names, sizeof(char *) * (size_t)n);
}

/* The first '#' from P to the end of its line (which a backslash
 * continues), outside strings and comments; NULL if none. */
static const char *find_hash(const char *p, const char *end)
{
	char in = 0;

	for (; p < end && *p != '\n'; p++) {
		if (*p == '\\' && p + 1 < end) {
			p++;	/* an escape, or a line continued */
		} else if (in) {
			if (*p == in)
				in = 0;
		} else if (*p == '"' || *p == '\'') {
			in = *p;
		} else if (*p == '/' && p + 1 < end && p[1] == '/') {
			return NULL;
		} else if (*p == '/' && p + 1 < end && p[1] == '*') {
			for (p += 2; p + 1 < end && !(p[0] == '*' && p[1] == '/'); p++)
				;
			p++;
		} else if (*p == '#') {
			return p;
		}
	}
	return NULL;
}

/* The rest of the line as M's body.  One the lexer cannot read, or
 * that holds '#', is kept as an error for the macro's uses. */
static void body(struct lexer *lx, struct pp_macro *m)
{
	struct toks l = { 0 };
	jmp_buf env, *saved = lx->soft;
	const char *hash = find_hash(lx->p, lx->end);
	struct token t;

	if (hash) {
		m->bad = "'#' and '##' (stringizing, token pasting) are not supported in macros";
		m->bad_loc = lex_here(lx, hash, 1);
		m->bad_tag = E_PREPROC;
		return;
	}
	lx->soft = &env;
	if (setjmp(env)) {
		lx->soft = saved;
		m->bad = lx->soft_msg;
		m->bad_loc = lx->soft_loc;
		m->bad_tag = lx->soft_tag;
		return;
	}
	for (lex_scan(lx, &t); t.kind != T_EOF; lex_scan(lx, &t)) {
		if (t.kind == T_IDENT) {
			for (int i = 0; i < m->nparams; i++)
				if (!strcmp(m->params[i], t.text))
					t.ival = (uint64_t)i + 1;
		}
		toks_add(lx, &l, &t);
	}
	lx->soft = saved;
	m->body = l.v;
	m->nbody = l.n;
}

void pp_define(struct lexer *lx, struct loc at)
{
	struct pp *pp = lx->pp;
	struct token name = macro_name(lx, at, "#define");
	struct pp_macro *m = arena_alloc(lx->arena, sizeof(*m));

	m->name = name.text;
	m->loc = name.loc;
	m->nparams = -1;
	if (lx->p < lx->end && *lx->p == '(') {
		lx->p++;
		params(lx, m);
	}
	body(lx, m);
	if (pp->scan) {
		if (pp->nscanned == pp->capscanned) {
			int cap = pp->capscanned ? pp->capscanned * 2 : 64;
			struct pp_scanned *v = arena_alloc(lx->arena,
							   sizeof(*v) * (size_t)cap);

			if (pp->nscanned)
				memcpy(v, pp->scanned, sizeof(*v) * (size_t)pp->nscanned);
			pp->scanned = v;
			pp->capscanned = cap;
		}
		pp->scanned[pp->nscanned].m = m;
		pp->scanned[pp->nscanned++].prev = pp_macro(lx, m->name);
	}
	strmap_put(&pp->macros, lx->arena, m->name, m);
}

void pp_undef(struct lexer *lx, struct loc at)
{
	struct token name = macro_name(lx, at, "#undef");

	if (pp_macro(lx, name.text))
		strmap_put(&lx->pp->macros, lx->arena, name.text, NULL);
}

/* V as the tokens of a macro body: 5, or ( - 5 ). */
static struct token *int_body(struct lexer *lx, int64_t v, struct loc at,
			      int *n)
{
	struct token *b = arena_alloc(lx->arena, sizeof(*b) * 4);

	for (int i = 0; i < 4; i++)
		b[i].loc = at;
	if (v >= 0) {
		b[0].kind = T_INT;
		b[0].ival = (uint64_t)v;
		*n = 1;
		return b;
	}
	b[0].kind = T_LPAREN;
	b[1].kind = T_MINUS;
	b[2].kind = T_INT;
	b[2].ival = -(uint64_t)v;
	b[3].kind = T_RPAREN;
	*n = 4;
	return b;
}

void pp_define_int(struct lexer *lx, const char *name, int64_t v,
		   struct loc at)
{
	struct pp_macro *m = arena_alloc(lx->arena, sizeof(*m));

	m->name = arena_strdup(lx->arena, name);
	m->loc = at;
	m->nparams = -1;
	m->body = int_body(lx, v, at, &m->nbody);
	strmap_put(&lx->pp->macros, lx->arena, m->name, m);
}

bool pp_take(struct lexer *lx, struct token *t)
{
	struct pp *pp = lx->pp;

	if (!pp->nqueue)
		return false;
	*t = pp->queue[--pp->nqueue];
	return true;
}

const struct token *pp_peek(struct lexer *lx)
{
	struct pp *pp = lx->pp;

	return pp->nqueue ? &pp->queue[pp->nqueue - 1] : NULL;
}

/* Put T back in front of the tokens to read. */
static void untake(struct lexer *lx, const struct token *t)
{
	struct pp *pp = lx->pp;

	if (pp->nqueue == pp->capqueue) {
		int cap = pp->capqueue ? pp->capqueue * 2 : 64;
		struct token *v = arena_alloc(lx->arena, sizeof(*v) * (size_t)cap);

		if (pp->nqueue)
			memcpy(v, pp->queue, sizeof(*v) * (size_t)pp->nqueue);
		pp->queue = v;
		pp->capqueue = cap;
	}
	pp->queue[pp->nqueue++] = *t;
}

/* The next token, unexpanded: pending, else from the buffer; false at
 * the end of an argument being expanded on its own. */
static bool next_raw(struct lexer *lx, struct token *t)
{
	if (pp_take(lx, t))
		return true;
	if (lx->pp->isolated)
		return false;
	lex_scan(lx, t);
	return true;
}

static bool hidden(const struct pp_hide *h, const struct pp_macro *m)
{
	for (; h; h = h->next)
		if (h->m == m)
			return true;
	return false;
}

static const struct pp_hide *hide_add(struct lexer *lx,
				      const struct pp_hide *h,
				      const struct pp_macro *m, struct loc at)
{
	struct pp_hide *n;

	if (hidden(h, m))
		return h;
	if (h && h->depth >= PP_MAX_NEST)
		lex_fail(lx, at, E_PREPROC,
			 "macro expansion nested deeper than %d macros",
			 PP_MAX_NEST);
	n = arena_alloc(lx->arena, sizeof(*n));
	n->m = m;
	n->next = h;
	n->depth = h ? h->depth + 1 : 1;
	return n;
}

static void count(struct lexer *lx, int n, struct loc at)
{
	lx->pp->made += n;
	if (lx->pp->made > PP_MAX_MADE)
		lex_fail(lx, at, E_PREPROC,
			 "macro expansion makes more than %d tokens", PP_MAX_MADE);
}

/* The arguments of function-like M, used at T: the '(' read, up to
 * the matching ')', split at the commas outside parentheses (the last
 * parameter of a variadic macro takes the rest, commas and all). */
static struct toks *arguments(struct lexer *lx, const struct pp_macro *m,
			      struct token *t)
{
	int nargs = m->nparams ? m->nparams : 1, k = 0, level = 0;
	struct toks *args = arena_alloc(lx->arena, sizeof(*args) * (size_t)nargs);
	bool variadic = m->nparams &&
			!strcmp(m->params[m->nparams - 1], "__VA_ARGS__");
	struct token u;

	for (;;) {
		if (!next_raw(lx, &u) || u.kind == T_EOF)
			lex_fail(lx, t->loc, E_PREPROC,
				 "unterminated use of macro '%s': ')' expected",
				 m->name);
		if (u.kind == T_LPAREN) {
			level++;
		} else if (u.kind == T_RPAREN && !level--) {
			break;
		} else if (u.kind == T_COMMA && !level &&
			   !(variadic && k == nargs - 1)) {
			k++;
			continue;
		}
		if (k < nargs) {
			count(lx, 1, t->loc);
			toks_add(lx, &args[k], &u);
		}
	}
	t->loc = span(t->loc, u.loc);
	if (!m->nparams && (k || args[0].n))
		lex_fail(lx, t->loc, E_PREPROC, "macro '%s' takes no arguments",
			 m->name);
	if (variadic && k + 1 < m->nparams - 1)
		lex_fail(lx, t->loc, E_PREPROC,
			 "macro '%s' takes at least %d argument%s, given %d",
			 m->name, m->nparams - 1, m->nparams == 2 ? "" : "s",
			 k + 1);
	if (!variadic && m->nparams && k + 1 != m->nparams)
		lex_fail(lx, t->loc, E_PREPROC,
			 "macro '%s' takes %d argument%s, given %d", m->name,
			 m->nparams, m->nparams == 1 ? "" : "s", k + 1);
	return args;
}

/* ARG expanded on its own, as C expands an argument before putting it
 * in the body. */
static struct toks expand_arg(struct lexer *lx, const struct toks *arg,
			      struct loc at)
{
	struct pp *pp = lx->pp;
	struct token *queue = pp->queue;
	int nqueue = pp->nqueue, capqueue = pp->capqueue;
	struct toks out = { 0 };
	struct token u;

	if (pp->depth >= PP_MAX_DEPTH)
		lex_fail(lx, at, E_PREPROC,
			 "macro arguments nested deeper than %d levels",
			 PP_MAX_DEPTH);
	pp->depth++;
	/* room for the argument, and its expansion if it has no macro */
	pp->nqueue = 0;
	pp->capqueue = arg->n ? arg->n : 1;
	pp->queue = arena_alloc(lx->arena, sizeof(*pp->queue) *
				(size_t)pp->capqueue);
	out.cap = pp->capqueue;
	out.v = arena_alloc(lx->arena, sizeof(*out.v) * (size_t)out.cap);
	pp->isolated++;
	for (int i = arg->n - 1; i >= 0; i--)
		untake(lx, &arg->v[i]);
	while (pp_take(lx, &u)) {
		if (u.kind == T_IDENT && pp_expand(lx, &u))
			continue;
		toks_add(lx, &out, &u);
	}
	pp->isolated--;
	pp->depth--;
	pp->queue = queue;
	pp->nqueue = nqueue;
	pp->capqueue = capqueue;
	return out;
}

/* M's body for its use at T, parameters replaced by ARGS, pushed in
 * front of what is to be read. */
static void substitute(struct lexer *lx, const struct pp_macro *m,
		       const struct token *t, struct toks *args)
{
	const struct pp_hide *h = hide_add(lx, t->hide, m, t->loc);
	struct toks out = { 0 }, *done = NULL;
	int n = 0;

	/* the arguments the body uses, expanded, then the exact room:
	 * expansions are many and small */
	if (m->nparams > 0)
		done = arena_alloc(lx->arena, sizeof(*done) * (size_t)m->nparams);
	for (int i = 0; i < m->nbody; i++) {
		int k = (int)m->body[i].ival - 1;

		if (m->body[i].kind != T_IDENT || k < 0) {
			n++;
			continue;
		}
		if (!done[k].v)
			done[k] = expand_arg(lx, &args[k], t->loc);
		n += done[k].n;
	}
	out.cap = n ? n : 1;
	out.v = arena_alloc(lx->arena, sizeof(*out.v) * (size_t)out.cap);
	for (int i = 0; i < m->nbody; i++) {
		struct token b = m->body[i];

		if (b.kind == T_IDENT && b.ival) {
			int k = (int)b.ival - 1;

			count(lx, done[k].n, t->loc);
			for (int j = 0; j < done[k].n; j++) {
				struct token a = done[k].v[j];

				a.hide = hide_add(lx, a.hide, m, t->loc);
				toks_add(lx, &out, &a);
			}
			continue;
		}
		count(lx, 1, t->loc);
		b.ival = b.kind == T_IDENT ? 0 : b.ival;
		b.loc = t->loc;
		b.hide = h;
		b.nl_before = 0;
		toks_add(lx, &out, &b);
	}
	for (int i = out.n - 1; i >= 0; i--)
		untake(lx, &out.v[i]);
}

bool pp_expand(struct lexer *lx, struct token *t)
{
	struct pp_macro *m = pp_macro(lx, t->text);
	struct toks *args = NULL;

	if (!m || hidden(t->hide, m))
		return false;
	if (m->nparams >= 0) {
		struct token u;

		if (!next_raw(lx, &u))
			return false;
		if (u.kind != T_LPAREN) {
			untake(lx, &u);
			return false;
		}
		args = arguments(lx, m, t);
	}
	if (m->bad) {
		struct diag_file f = diag_source(lx->diag, m->bad_loc.file);

		lex_fail(lx, t->loc, m->bad_tag,
			 "macro '%s' cannot be used: %s (its definition at %s:%d:%d)",
			 m->name, m->bad, f.name, m->bad_loc.line,
			 m->bad_loc.col);
	}
	substitute(lx, m, t, args);
	return true;
}

/* #if expressions: C's, over 64-bit integers (signed unless a value
 * is too big for that, or mixed with an unsigned one). */
struct eval {
	struct lexer *lx;
	const struct token *v;
	int n, i;
	bool (*ident)(void *arg, const char *name, int64_t *out);
	void *arg;
	const char *err;	/* the first error, NULL if none */
	struct loc err_loc;
	int depth;
};

struct val {
	uint64_t v;
	bool uns;
};

static struct val fail_at(struct eval *e, const struct token *t,
			  const char *msg)
{
	struct val z = { 0, false };

	if (!e->err) {
		e->err = msg;
		e->err_loc = t ? t->loc : e->v[e->n - 1].loc;
	}
	return z;
}

static const struct token *cur(struct eval *e)
{
	return e->i < e->n ? &e->v[e->i] : NULL;
}

static bool at_kind(struct eval *e, enum tok k)
{
	return e->i < e->n && e->v[e->i].kind == k;
}

static struct val cond(struct eval *e);

static struct val primary(struct eval *e)
{
	const struct token *t = cur(e);
	struct val r = { 0, false };
	int64_t v;

	if (!t)
		return fail_at(e, NULL, "an expression expected");
	e->i++;
	switch (t->kind) {
	case T_INT:
		r.v = t->ival;
		r.uns = t->ival > INT64_MAX;
		return r;
	case T_LPAREN:
		r = cond(e);
		if (!at_kind(e, T_RPAREN))
			return fail_at(e, cur(e), "')' expected");
		e->i++;
		return r;
	case T_IDENT:
		if (!e->ident(e->arg, t->text, &v))
			return fail_at(e, t, "not an integer constant");
		r.v = (uint64_t)v;
		return r;
	default:
		return fail_at(e, t, "not an integer expression");
	}
}

static struct val unary(struct eval *e)
{
	const struct token *t = cur(e);
	struct val a;

	if (!t || (t->kind != T_MINUS && t->kind != T_PLUS &&
		   t->kind != T_TILDE && t->kind != T_BANG))
		return primary(e);
	if (++e->depth > PP_MAX_DEPTH)
		return fail_at(e, t, "expression nested too deep");
	e->i++;
	a = unary(e);
	e->depth--;
	if (t->kind == T_MINUS)
		a.v = -a.v;
	else if (t->kind == T_TILDE)
		a.v = ~a.v;
	else if (t->kind == T_BANG)
		a = (struct val){ !a.v, false };
	return a;
}

static bool less(struct val a, struct val b, bool uns)
{
	return uns ? a.v < b.v : (int64_t)a.v < (int64_t)b.v;
}

static struct val apply(struct eval *e, const struct token *op, struct val a,
			struct val b)
{
	bool uns = a.uns || b.uns;
	struct val r = { 0, uns };

	switch (op->kind) {
	case T_LOR: return (struct val){ a.v || b.v, false };
	case T_LAND: return (struct val){ a.v && b.v, false };
	case T_PIPE: r.v = a.v | b.v; return r;
	case T_CARET: r.v = a.v ^ b.v; return r;
	case T_AMP: r.v = a.v & b.v; return r;
	case T_EQ: return (struct val){ a.v == b.v, false };
	case T_NE: return (struct val){ a.v != b.v, false };
	case T_LT: return (struct val){ less(a, b, uns), false };
	case T_GT: return (struct val){ less(b, a, uns), false };
	case T_LE: return (struct val){ !less(b, a, uns), false };
	case T_GE: return (struct val){ !less(a, b, uns), false };
	case T_SHL: case T_SHR:
		r.uns = a.uns;
		if (b.v >= 64)
			return r;
		r.v = op->kind == T_SHL ? a.v << b.v :
		      a.uns ? a.v >> b.v : (uint64_t)((int64_t)a.v >> b.v);
		return r;
	case T_PLUS: r.v = a.v + b.v; return r;
	case T_MINUS: r.v = a.v - b.v; return r;
	case T_STAR: r.v = a.v * b.v; return r;
	default:
		if (!b.v)
			return fail_at(e, op, "division by zero");
		if (!uns && (int64_t)b.v == -1)
			r.v = op->kind == T_SLASH ? -a.v : 0;
		else if (uns)
			r.v = op->kind == T_SLASH ? a.v / b.v : a.v % b.v;
		else
			r.v = (uint64_t)(op->kind == T_SLASH ?
					 (int64_t)a.v / (int64_t)b.v :
					 (int64_t)a.v % (int64_t)b.v);
		return r;
	}
}

/* Operators of precedence MIN and above, by precedence climbing: the
 * operands of one level are a loop, not a recursion. */
static struct val binary(struct eval *e, int min)
{
	struct val a = unary(e);

	while (e->i < e->n && !e->err) {
		const struct token *op = cur(e);
		int l = tok_binop_level(op->kind);
		struct val b;

		if (!l || l < min)
			break;
		if (++e->depth > PP_MAX_DEPTH)
			return fail_at(e, op, "expression nested too deep");
		e->i++;
		b = binary(e, l + 1);
		e->depth--;
		a = apply(e, op, a, b);
	}
	return a;
}

static struct val cond(struct eval *e)
{
	struct val c, a, b;

	if (++e->depth > PP_MAX_DEPTH)
		return fail_at(e, cur(e), "expression nested too deep");
	c = binary(e, 1);
	if (at_kind(e, T_QUESTION)) {
		e->i++;
		a = cond(e);
		if (!at_kind(e, T_COLON))
			return fail_at(e, cur(e), "':' expected");
		e->i++;
		b = cond(e);
		c = c.v ? a : b;
		c.uns = a.uns || b.uns;
	}
	e->depth--;
	return c;
}

/* Evaluate V[0..N); false with E->err set on an error. */
static bool evaluate(struct eval *e, int64_t *out)
{
	struct val r;

	if (!e->n) {
		e->err = "an expression expected";
		return false;
	}
	r = cond(e);
	if (!e->err && e->i < e->n)
		fail_at(e, cur(e), "end of the expression expected");
	*out = (int64_t)r.v;
	return !e->err;
}

/* An integer macro's value: a body of an integer, or of a constant
 * expression over other such macros (kernel headers), at most 64 deep. */
static bool macro_value(void *arg, const char *name, int64_t *out)
{
	struct eval *outer = arg;
	struct pp_macro *m = pp_macro(outer->lx, name);
	struct eval e = { outer->lx, NULL, 0, 0, macro_value, NULL, NULL,
			  { 0 }, outer->depth + 1 };

	if (!m || m->nparams >= 0 || m->bad || outer->depth > 64)
		return false;
	e.arg = &e;
	e.v = m->body;
	e.n = m->nbody;
	return evaluate(&e, out);
}

bool pp_eval_tokens(struct lexer *lx, const struct token *v, int n,
		    int64_t *out)
{
	struct eval e = { lx, v, n, 0, macro_value, NULL, NULL, { 0 }, 0 };

	e.arg = &e;
	return evaluate(&e, out);
}

/* In #if, a name that is no macro is 0 (C), unless it is one of the
 * kernel constants sonde knows. */
static bool if_ident(void *arg, const char *name, int64_t *out)
{
	const struct pp_opts *o = ((struct lexer *)arg)->pp->o;

	if (o->constant && o->constant(o->arg, name, out))
		return true;
	*out = 0;
	return true;
}

static bool is_defined(struct lexer *lx, const char *name)
{
	const struct pp_opts *o = lx->pp->o;
	int64_t v;

	return pp_macro(lx, name) ||
	       (o->constant && o->constant(o->arg, name, &v));
}

/* The raw tokens of an #if line, defined X and defined(X) replaced by
 * 1 or 0 (before any macro is expanded, as C does). */
static struct toks if_tokens(struct lexer *lx)
{
	struct toks l = { 0 };
	struct token t, u;

	for (lex_scan(lx, &t); t.kind != T_EOF; lex_scan(lx, &t)) {
		if (t.kind == T_IDENT && !strcmp(t.text, "defined")) {
			bool paren;

			lex_scan(lx, &u);
			paren = u.kind == T_LPAREN;
			if (paren)
				lex_scan(lx, &u);
			if (u.kind != T_IDENT)
				lex_fail(lx, u.loc, E_PREPROC,
					 "a macro name expected after 'defined'");
			t.kind = T_INT;
			t.ival = is_defined(lx, u.text);
			if (paren) {
				const char *name = u.text;

				lex_scan(lx, &u);
				if (u.kind != T_RPAREN)
					lex_fail(lx, u.loc, E_PREPROC,
						 "')' expected after 'defined(%s'",
						 name);
			}
		}
		toks_add(lx, &l, &t);
	}
	return l;
}

bool pp_if(struct lexer *lx, struct loc at)
{
	struct toks raw, l;
	struct eval e = { lx, NULL, 0, 0, if_ident, lx, NULL, { 0 }, 0 };
	jmp_buf env, *saved = lx->soft;
	int64_t v;

	/* a kernel header read for its constants: what sonde cannot
	 * evaluate (__has_attribute(x), IS_ENABLED(y)) is false */
	if (lx->pp->scan) {
		lx->soft = &env;
		if (setjmp(env)) {
			lx->soft = saved;
			return false;
		}
	}
	raw = if_tokens(lx);
	if (!raw.n)
		lex_fail(lx, at, E_PREPROC, "%.*s without an expression",
			 at.len, lx->src + at.off);
	l = raw;
	for (int i = 0; i < raw.n; i++) {
		if (raw.v[i].kind == T_IDENT && pp_macro(lx, raw.v[i].text)) {
			l = expand_arg(lx, &raw, at);
			break;
		}
	}
	lx->soft = saved;
	e.v = l.v;
	e.n = l.n;
	if (!l.n)
		lex_fail(lx, at, E_PREPROC,
			 "%.*s: the expression is empty once its macros are expanded",
			 at.len, lx->src + at.off);
	if (evaluate(&e, &v))
		return v != 0;
	if (lx->pp->scan)
		return false;
	lex_fail(lx, e.err_loc, E_PREPROC, "%.*s: %s", at.len, lx->src + at.off,
		 e.err);
}
