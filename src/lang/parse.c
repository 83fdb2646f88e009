/* parse.c - recursive descent over the bpftrace grammar.
 *
 *   program   := item*
 *   item      := type-def | probes [ '/' expr '/' ] block
 *   probes    := PROBE (',' PROBE)*
 *   block     := '{' (stmt (';' stmt)*)? '}'
 *   stmt      := if | while | unroll | return | block | lvalue op= expr | expr
 *
 * Expressions follow C precedence.  Inside a predicate a bare '/' ends
 * the expression, so division there needs parentheses (as in bpftrace).
 * Syntax errors longjmp out through diag_fatal; every node lives in the
 * arena, so nothing leaks.  Directives and macros never reach the
 * parser: the lexer runs the preprocessor (pp.h).
 */
#include "lang/parse_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct node *expr(struct parser *p);
static struct node *block(struct parser *p, const char *after);

static struct node *call_args(struct parser *p, struct node *n)
{
	struct list l = { 0 };
	struct loc open = take(p).loc;	/* '(' */
	int saved = p->in_pred;

	p->in_pred = 0;
	if (peek(p)->kind != T_RPAREN) {
		do {
			list_add(p, &l, expr(p));
		} while (accept(p, T_COMMA));
	}
	n->loc = span(n->loc, peek(p)->loc);
	expect_close(p, T_RPAREN, open);
	p->in_pred = saved;
	n->args = l.v;
	n->nargs = l.n;
	return n;
}

/* '(' expr ')' or a tuple '(' expr ',' ... ')', the '(' at OPEN read. */
static struct node *paren(struct parser *p, struct loc open)
{
	struct list l = { 0 };
	int saved = p->in_pred;
	struct node *n;

	p->in_pred = 0;
	n = expr(p);
	if (peek(p)->kind == T_COMMA) {
		list_add(p, &l, n);
		while (accept(p, T_COMMA))
			list_add(p, &l, expr(p));
		n = mk(p, N_TUPLE, open);
		n->args = l.v;
		n->nargs = l.n;
		n->loc = span(open, peek(p)->loc);
	}
	expect_close(p, T_RPAREN, open);
	p->in_pred = saved;
	return n;
}

static struct node *primary(struct parser *p)
{
	struct token t = take(p);
	struct node *n;

	switch (t.kind) {
	case T_INT:
		n = mk(p, N_INT, t.loc);
		n->ival = t.ival;
		return n;
	case T_STRING:
		n = mk(p, N_STR, t.loc);
		n->name = t.text;
		n->len = t.len;
		/* Adjacent literals concatenate, as in C.  The buffer
		 * doubles: a generated script may glue thousands. */
		if (peek(p)->kind == T_STRING) {
			size_t cap = 0;
			char *b = NULL;

			while (peek(p)->kind == T_STRING) {
				struct token s = take(p);

				if (n->len + s.len + 1 > cap) {
					cap = 2 * (n->len + s.len + 1);
					b = arena_alloc(p->arena, cap);
					memcpy(b, n->name, n->len);
					n->name = b;
				}
				memcpy(b + n->len, s.text, s.len);
				n->len += s.len;
				b[n->len] = 0;
				n->loc = span(n->loc, s.loc);
			}
		}
		return n;
	case T_VAR:
		n = mk(p, N_VAR, t.loc);
		n->name = t.text;
		return n;
	case T_POSITIONAL:
		n = mk(p, N_POSITIONAL, t.loc);
		n->ival = t.ival;
		return n;
	case T_NARGS:
		return mk(p, N_NARGS, t.loc);
	case T_MAP:
		n = mk(p, N_MAP, t.loc);
		n->name = t.text;
		if (peek(p)->kind == T_LBRACKET) {
			struct loc open = take(p).loc;
			struct list l = { 0 };
			int saved = p->in_pred;

			p->in_pred = 0;
			do {
				list_add(p, &l, expr(p));
			} while (accept(p, T_COMMA));
			n->loc = span(n->loc, peek(p)->loc);
			expect_close(p, T_RBRACKET, open);
			p->in_pred = saved;
			n->args = l.v;
			n->nargs = l.n;
		}
		return n;
	case T_IDENT:
		if (peek(p)->kind == T_LPAREN) {
			n = mk(p, N_CALL, t.loc);
			n->name = t.text;
			return call_args(p, n);
		}
		n = mk(p, N_BUILTIN, t.loc);
		n->name = t.text;
		return n;
	case T_SIZEOF: {
		struct loc open = expect(p, T_LPAREN, "'(' expected after 'sizeof'").loc;

		n = mk(p, N_SIZEOF, t.loc);
		if (parse_is_type(p, peek(p)))
			parse_type_name(p, n);
		else
			n->a = expr(p);
		n->loc = span(n->loc, peek(p)->loc);
		expect_close(p, T_RPAREN, open);
		return n;
	}
	case T_LPAREN:
		return paren(p, t.loc);
	default:
		p->have_tok = 1;
		p->tok = t;
		unexpected(p, "expression expected");
	}
}

/* The postfix operators after N: fields, indexes, ++ and --. */
static struct node *postfix_ops(struct parser *p, struct node *n)
{
	int levels = 0;

	for (;;) {
		struct token *t = peek(p);

		if (t->kind == T_DOT || t->kind == T_ARROW ||
		    t->kind == T_LBRACKET || t->kind == T_INC ||
		    t->kind == T_DEC) {
			chain(p, t);
			levels++;
		}

		if (t->kind == T_DOT || t->kind == T_ARROW) {
			struct token op = take(p);
			struct node *f = mk(p, N_FIELD, op.loc);
			struct token id = take(p);

			/* "1.5" lexes as 1 . 5, which would read as a tuple
			 * field; say what it really is */
			if (n->kind == N_INT && op.kind == T_DOT &&
			    id.kind == T_INT &&
			    op.loc.off == n->loc.off + n->loc.len &&
			    id.loc.off == op.loc.off + 1)
				diag_fatal(p->diag, span(n->loc, id.loc), E_LEX,
					   "no floating-point numbers: scale to an integer unit (1.5 s is 1500 ms)");
			if (id.kind == T_IDENT) {
				f->name = id.text;
			} else if (id.kind == T_INT && op.kind == T_DOT) {
				f->name = arena_printf(p->arena, "%llu",
						       (unsigned long long)id.ival);
				f->ival = id.ival;
			} else {
				p->tok = id;
				p->have_tok = 1;
				unexpected(p, "field name expected");
			}
			f->op = op.kind;
			f->a = n;
			f->loc = span(n->loc, id.loc);
			n = f;
		} else if (t->kind == T_LBRACKET) {
			struct loc open = take(p).loc;
			struct node *ix = mk(p, N_INDEX, n->loc);
			int saved = p->in_pred;

			p->in_pred = 0;
			ix->a = n;
			ix->b = expr(p);
			ix->loc = span(n->loc, peek(p)->loc);
			expect_close(p, T_RBRACKET, open);
			p->in_pred = saved;
			n = ix;
		} else if (t->kind == T_INC || t->kind == T_DEC) {
			struct token op = take(p);
			struct node *u = mk(p, N_INCDEC, span(n->loc, op.loc));

			u->op = op.kind;
			u->a = n;
			n = u;
		} else {
			p->tree -= levels;
			return n;
		}
	}
}

static struct node *postfix(struct parser *p)
{
	return postfix_ops(p, primary(p));
}

static struct node *unary(struct parser *p)
{
	struct token *t = peek(p);
	struct node *n;

	switch (t->kind) {
	case T_BANG: case T_TILDE: case T_MINUS: case T_PLUS: case T_STAR:
	case T_AMP: {
		struct token op = take(p);

		n = mk(p, N_UNOP, op.loc);
		n->op = op.kind;
		enter(p);
		n->a = unary(p);
		leave(p);
		n->loc = span(op.loc, n->a->loc);
		break;
	}
	case T_INC: case T_DEC: {
		struct token op = take(p);

		n = mk(p, N_INCDEC, op.loc);
		n->op = op.kind;
		n->prefix = 1;
		enter(p);
		n->a = unary(p);
		leave(p);
		n->loc = span(op.loc, n->a->loc);
		break;
	}
	case T_LPAREN: {
		/* A cast if a type name follows the parenthesis. */
		struct token open = take(p);

		if (parse_is_type(p, peek(p))) {
			n = mk(p, N_CAST, open.loc);
			parse_type_name(p, n);
			expect_close(p, T_RPAREN, open.loc);
			enter(p);
			n->a = unary(p);
			leave(p);
			n->loc = span(open.loc, n->a->loc);
			break;
		}
		/* not a cast: a parenthesized primary */
		n = postfix_ops(p, paren(p, open.loc));
		break;
	}
	default:
		n = postfix(p);
	}
	return n;
}

static struct node *binary(struct parser *p, int min_level)
{
	struct node *lhs = unary(p);
	int levels = 0;

	for (;;) {
		enum tok k = peek(p)->kind;
		int level = tok_binop_level(k);
		struct token op;
		struct node *n, *rhs;

		if (!level || level < min_level || (k == T_SLASH && p->in_pred)) {
			p->tree -= levels;
			return lhs;
		}
		op = take(p);
		chain(p, &op);
		levels++;
		rhs = binary(p, level + 1);
		n = mk(p, k == T_LAND ? N_LAND : k == T_LOR ? N_LOR : N_BINOP,
		       op.loc);
		n->op = k;
		n->a = lhs;
		n->b = rhs;
		n->loc = span(lhs->loc, rhs->loc);
		lhs = n;
	}
}

static struct node *expr(struct parser *p)
{
	struct node *c;

	enter(p);
	c = binary(p, 1);
	if (peek(p)->kind == T_QUESTION) {
		struct node *n = mk(p, N_TERNARY, take(p).loc);

		n->a = c;
		n->b = expr(p);
		expect(p, T_COLON, "':' expected in the conditional expression (a ? b : c)");
		n->c = expr(p);
		n->loc = span(c->loc, n->c->loc);
		c = n;
	}
	leave(p);
	return c;
}

static int is_assign_op(enum tok k)
{
	return k == T_ASSIGN || (k >= T_ADD_ASSIGN && k <= T_SHR_ASSIGN);
}

static struct node *if_stmt(struct parser *p, struct token kw)
{
	struct node *n = mk(p, N_IF, kw.loc);
	struct loc open = expect(p, T_LPAREN, "'(' expected after 'if'").loc;

	n->a = expr(p);
	expect_close(p, T_RPAREN, open);
	n->b = block(p, "'if (...)'");
	if (accept(p, T_ELSE)) {
		if (peek(p)->kind == T_IF) {
			struct node *b = mk(p, N_BLOCK, peek(p)->loc);

			b->args = arena_alloc(p->arena, sizeof(struct node *));
			enter(p);
			b->args[0] = if_stmt(p, take(p));
			leave(p);
			b->nargs = 1;
			n->c = b;
		} else {
			n->c = block(p, "'else'");
		}
	}
	return n;
}

/* for ($v : START..END) { ... } after the 'for' KW. */
static struct node *for_stmt(struct parser *p, struct token kw)
{
	struct loc open = expect(p, T_LPAREN, "'(' expected after 'for'").loc;
	struct token v = expect(p, T_VAR, "a $variable expected after 'for ('");
	struct node *n = mk(p, N_FOR, kw.loc), *r;

	n->a = mk(p, N_VAR, v.loc);
	n->a->name = v.text;
	expect(p, T_COLON, "':' expected after the loop variable");
	r = expr(p);
	if (peek(p)->kind != T_DOTDOT)
		diag_fatal(p->diag, r->loc, E_SYNTAX,
			   "'..' expected: 'for' takes a range START..END");
	n->b = mk(p, N_RANGE, take(p).loc);
	n->b->a = r;
	n->b->b = expr(p);
	expect_close(p, T_RPAREN, open);
	p->loop_depth++;
	n->c = block(p, "'for (...)'");
	p->loop_depth--;
	return n;
}

/* Returns the statement and whether it ended in a block (no ';' needed). */
static struct node *stmt(struct parser *p, int *ends_block)
{
	struct token *t = peek(p);
	struct node *n;

	*ends_block = 0;
	switch (t->kind) {
	case T_IF:
		n = if_stmt(p, take(p));
		*ends_block = 1;
		break;
	case T_WHILE: {
		struct token kw = take(p);
		struct loc open = expect(p, T_LPAREN, "'(' expected after 'while'").loc;

		n = mk(p, N_WHILE, kw.loc);
		n->a = expr(p);
		expect_close(p, T_RPAREN, open);
		p->loop_depth++;
		n->b = block(p, "'while (...)'");
		p->loop_depth--;
		*ends_block = 1;
		break;
	}
	case T_FOR:
		n = for_stmt(p, take(p));
		*ends_block = 1;
		break;
	case T_UNROLL: {
		struct token kw = take(p);
		struct loc open = expect(p, T_LPAREN, "'(' expected after 'unroll'").loc;

		n = mk(p, N_UNROLL, kw.loc);
		n->a = expr(p);
		expect_close(p, T_RPAREN, open);
		n->b = block(p, "'unroll (...)'");
		*ends_block = 1;
		break;
	}
	case T_RETURN:
		n = mk(p, N_RETURN, take(p).loc);
		/* return EXPR: a test probe's verdict (0 passes) */
		if (peek(p)->kind != T_SEMI && peek(p)->kind != T_RBRACE)
			n->a = expr(p);
		break;
	case T_BREAK: case T_CONTINUE: {
		struct token kw = take(p);

		if (!p->loop_depth)
			diag_fatal(p->diag, kw.loc, E_SYNTAX,
				   "'%s' outside a loop",
				   tok_spelling(kw.kind));
		n = mk(p, kw.kind == T_BREAK ? N_BREAK : N_CONTINUE, kw.loc);
		break;
	}
	case T_LBRACE:
		n = block(p, "the block");
		*ends_block = 1;
		break;
	default: {
		struct node *e = expr(p);

		if (is_assign_op(peek(p)->kind)) {
			struct token op = take(p);

			n = mk(p, N_ASSIGN, op.loc);
			n->op = op.kind;
			n->a = e;
			n->b = expr(p);
			n->loc = span(e->loc, n->b->loc);
		} else {
			n = mk(p, N_EXPRSTMT, e->loc);
			n->a = e;
		}
	}
	}
	return n;
}

/* '{' statements '}'; AFTER names what the block belongs to, for the
 * message when the '{' is missing (bpftrace has no unbraced bodies). */
static struct node *block(struct parser *p, const char *after)
{
	struct node *b;
	struct list l = { 0 };
	struct token open;

	if (peek(p)->kind != T_LBRACE) {
		char what[96];

		snprintf(what, sizeof(what), "'{' expected after %s (bodies need braces)",
			 after);
		unexpected(p, what);
	}
	open = take(p);
	b = mk(p, N_BLOCK, open.loc);

	enter(p);
	for (;;) {
		int ends_block;

		while (accept(p, T_SEMI))
			;
		if (peek(p)->kind == T_RBRACE)
			break;
		if (peek(p)->kind == T_EOF)
			expect_close(p, T_RBRACE, open.loc);
		list_add(p, &l, stmt(p, &ends_block));
		if (peek(p)->kind == T_RBRACE)
			break;
		if (peek(p)->kind == T_EOF)
			expect_close(p, T_RBRACE, open.loc);
		/* "BEGIN { ... <no '}'> END { ... }": the next probe's
		 * name was read as a statement. */
		if (!ends_block && l.v[l.n - 1]->kind == N_EXPRSTMT &&
		    l.v[l.n - 1]->a->kind == N_BUILTIN &&
		    (peek(p)->kind == T_LBRACE || peek(p)->kind == T_COLON ||
		     peek(p)->kind == T_COMMA)) {
			struct node *e = l.v[l.n - 1]->a;

			diag_fatal(p->diag, e->loc, E_SYNTAX,
				   "'}' expected to close '{' at %d:%d before '%s', which looks like the next probe",
				   open.loc.line, open.loc.col, e->name);
		}
		/* The ';' is missing where the statement ends, not where
		 * the next token happens to be (maybe lines below). */
		if (!ends_block && peek(p)->kind != T_SEMI)
			unexpected_at(p, p->prev_end,
				      "';' expected after the statement");
	}
	take(p);
	leave(p);
	b->args = l.v;
	b->nargs = l.n;
	return b;
}

static struct node *probe(struct parser *p, struct token first)
{
	struct node *pr = mk(p, N_PROBE, first.loc);
	struct list l = { 0 };
	struct token t = first;

	for (;;) {
		struct node *ap = mk(p, N_ATTACH, t.loc);

		ap->name = t.text;
		list_add(p, &l, ap);
		if (peek(p)->kind != T_COMMA)
			break;
		take(p);
		p->have_tok = 0;
		lex_probe(&p->lx, &t);
		if (t.kind != T_PROBE) {
			p->tok = t;
			p->have_tok = 1;
			unexpected(p, "probe expected after ','");
		}
	}
	pr->args = l.v;
	pr->nargs = l.n;
	if (peek(p)->kind == T_SLASH) {
		take(p);
		p->in_pred = 1;
		pr->a = expr(p);
		p->in_pred = 0;
		expect(p, T_SLASH, "'/' expected to end the predicate");
		/* "/pid / 2 == 1/": the '/' of the division ended it. */
		if (peek(p)->kind != T_LBRACE)
			unexpected(p, "'{' expected after the predicate (a '/' ends the predicate: write (a / b) to divide)");
	}
	if (peek(p)->kind != T_LBRACE)
		unexpected(p, "'{' expected to start the probe's action block");
	pr->b = block(p, "the probe");
	return pr;
}

/* config = { name = value; ... }: the script's settings, after the
 * C definitions and before the first probe.  The names and values are
 * checked where they are applied (src/config.c). */
static void config_block(struct parser *p, struct program *prog,
			 struct token kw)
{
	struct config_item **tail = &prog->config;

	if (prog->has_config)
		diag_fatal(p->diag, kw.loc, E_CONFIG,
			   "a second config block: a script has at most one");
	if (prog->nprobes)
		diag_fatal(p->diag, kw.loc, E_CONFIG,
			   "the config block must come before the first probe");
	prog->has_config = true;
	take(p);
	expect(p, T_LBRACE, "'{' expected after 'config ='");
	while (!accept(p, T_RBRACE)) {
		struct config_item *it = arena_alloc(p->arena, sizeof(*it));
		struct token name = expect(p, T_IDENT,
					   "config variable name expected");
		struct token v;

		it->name = name.text;
		it->loc = name.loc;
		expect(p, T_ASSIGN, "'=' expected after the config variable");
		v = take(p);
		if (v.kind != T_INT && v.kind != T_IDENT && v.kind != T_STRING) {
			p->tok = v;
			p->have_tok = 1;
			unexpected(p, "config value (a number, a word or a string) expected");
		}
		it->kind = v.kind;
		it->vloc = v.loc;
		it->text = v.text;
		it->ival = v.ival;
		*tail = it;
		tail = &it->next;
		if (!accept(p, T_SEMI) && peek(p)->kind != T_RBRACE)
			unexpected(p, "';' or '}' expected after the config value");
	}
}

/* Just after the last character that is not blank (a comment, a
 * definition), where a probe would go; 1:1 in an empty script. */
static struct loc text_end(const char *src, size_t len)
{
	const char *end = src + len, *ls = src;
	struct loc l = { 1, 1, 0, 1, 0 };

	while (end > src && strchr(" \t\r\n\f\v", end[-1]))
		end--;
	for (const char *q = src; q < end; q++) {
		if (*q == '\n') {
			l.line++;
			ls = q + 1;
		}
	}
	l.col = (int)(end - ls) + 1;
	l.off = (int)(end - src);
	return l;
}

/* The error for a script over SCRIPT_MAX_SIZE, at its first byte past
 * the limit. */
static void too_big(const char *src, struct diag *d)
{
	const char *at = src + SCRIPT_MAX_SIZE, *ls = src, *nl;
	struct loc l = { 1, 1, SCRIPT_MAX_SIZE, 1, 0 };

	while ((nl = memchr(ls, '\n', (size_t)(at - ls)))) {
		ls = nl + 1;
		l.line++;
	}
	l.col = (int)(at - ls) + 1;
	diag_error(d, l, E_LIMIT,
		   "the script is longer than %d bytes; sonde reads no further",
		   SCRIPT_MAX_SIZE);
}

struct program *parse_program(const char *src, size_t len, struct arena *a,
			      struct diag *d, const struct pp_opts *o)
{
	static const struct pp_opts none;
	struct parser p;
	struct program *prog = arena_alloc(a, sizeof(*prog));
	struct node **tail = &prog->probes, **ttail = &prog->types;
	jmp_buf env, *saved = d->fatal;

	if (len > SCRIPT_MAX_SIZE) {
		too_big(src, d);
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	p.arena = a;
	p.diag = d;
	lex_init(&p.lx, src, len, a, d);
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
		if (t.kind == T_PROBE && !strcmp(t.text, "config") &&
		    peek(&p)->kind == T_ASSIGN) {
			config_block(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && parse_decl_start(t.text)) {
			*ttail = parse_decl(&p, t);
			while (*ttail)	/* a typedef may name several */
				ttail = &(*ttail)->next;
			continue;
		}
		if (t.kind != T_PROBE) {
			p.tok = t;
			p.have_tok = 1;
			if (t.kind == T_RBRACE)
				diag_fatal(d, t.loc, E_SYNTAX,
					   "'}' without a matching '{'");
			unexpected(&p, "probe expected");
		}
		*tail = probe(&p, t);
		tail = &(*tail)->next;
		prog->nprobes++;
	}
	d->fatal = saved;
	if (!prog->nprobes) {
		diag_error(d, text_end(src, len), E_SYNTAX,
			   "the program has no probes");
		return NULL;
	}
	return prog;
}
