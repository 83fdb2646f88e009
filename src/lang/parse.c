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
static struct node *block_expr(struct parser *p);
static struct node *if_expr(struct parser *p, struct token kw);

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

/* A record (a=1, b="x"), its first field's name N read and '='
 * next: an N_TUPLE with field names. */
static struct node *record(struct parser *p, struct loc open, struct node *n)
{
	struct list l = { 0 };
	const char **names = NULL;
	int cap = 0;
	struct node *r = mk(p, N_TUPLE, open);

	for (;;) {
		if (n->kind != N_BUILTIN)
			diag_fatal(p->diag, n->loc, E_SYNTAX,
				   "a record's field is written NAME = VALUE");
		expect(p, T_ASSIGN, "'=' expected after the record's field name");
		if (l.n == cap) {
			const char **v = arena_alloc(p->arena, sizeof(*v) *
						     (size_t)(cap ? 2 * cap : 4));

			if (cap)
				memcpy(v, names, sizeof(*v) * (size_t)cap);
			names = v;
			cap = cap ? 2 * cap : 4;
		}
		names[l.n] = n->name;
		list_add(p, &l, expr(p));
		if (!accept(p, T_COMMA))
			break;
		n = expr(p);
	}
	r->args = l.v;
	r->nargs = l.n;
	r->fnames = names;
	r->loc = span(open, peek(p)->loc);
	return r;
}

/* '(' expr ')' or a tuple '(' expr ',' ... ')', the '(' at OPEN read. */
static struct node *paren(struct parser *p, struct loc open)
{
	struct list l = { 0 };
	int saved = p->in_pred;
	struct node *n;

	p->in_pred = 0;
	n = expr(p);
	if (peek(p)->kind == T_ASSIGN && n->kind == N_BUILTIN && !p->d) {
		n = record(p, open, n);
	} else if (p->d && parse_is_assign_op(peek(p)->kind)) {
		n = d_assign_value(p, n);
	} else if (peek(p)->kind == T_COMMA) {
		list_add(p, &l, n);
		/* (1,) is a tuple of one (today's bpftrace) */
		while (accept(p, T_COMMA) && peek(p)->kind != T_RPAREN)
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

/* offsetof(TYPE or EXPR, FIELD[.FIELD...]), its name T read: an
 * N_OFFSETOF whose name is the field path. */
static struct node *offsetof_expr(struct parser *p, struct token t)
{
	struct loc open = take(p).loc;
	struct node *n = mk(p, N_OFFSETOF, t.loc);
	char *path = NULL;

	if (parse_is_type(p, peek(p)))
		parse_type_name(p, n);
	else
		n->a = expr(p);
	expect(p, T_COMMA, "',' expected before offsetof's field");
	do {
		struct token f = expect(p, T_IDENT, "field name expected");

		path = path ? arena_printf(p->arena, "%s.%s", path, f.text)
			    : arena_printf(p->arena, "%s", f.text);
	} while (accept(p, T_DOT));
	n->name = path;
	n->loc = span(n->loc, peek(p)->loc);
	expect_close(p, T_RPAREN, open);
	return n;
}

void parse_map_keys(struct parser *p, struct node *n)
{
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

static struct node *primary(struct parser *p)
{
	struct token t = take(p);
	struct node *n;

	switch (t.kind) {
	case T_INT:
		n = mk(p, N_INT, t.loc);
		n->ival = t.ival;
		n->len = t.len;		/* C's suffix: 1 long, 2 unsigned */
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
		n->len = t.len;		/* D's $$N: 1 */
		return n;
	case T_NARGS:
		return mk(p, N_NARGS, t.loc);
	case T_MAP:
		n = mk(p, N_MAP, t.loc);
		n->name = t.text;
		if (peek(p)->kind == T_LBRACKET)
			parse_map_keys(p, n);
		return n;
	case T_IDENT:
		if (!strcmp(t.text, "offsetof") && peek(p)->kind == T_LPAREN)
			return offsetof_expr(p, t);
		/* D's xlate <TYPE> (EXPR): a translator applied (dlower.c) */
		if (p->d && !strcmp(t.text, "xlate") && peek(p)->kind == T_LT) {
			struct loc open;

			take(p);
			n = mk(p, N_CALL, t.loc);
			n->name = "xlate";
			parse_type_name(p, n);
			expect(p, T_GT, "'>' expected after xlate's type");
			open = expect(p, T_LPAREN, "'(' expected after xlate <TYPE>").loc;
			n->args = arena_alloc(p->arena, sizeof(*n->args));
			n->args[0] = expr(p);
			n->nargs = 1;
			expect_close(p, T_RPAREN, open);
			return n;
		}
		/* NAME!(...): a macro's call, as some bpftrace versions
		 * write it (a name is never followed by '!' otherwise) */
		if (peek(p)->kind == T_BANG) {
			take(p);
			if (peek(p)->kind != T_LPAREN)
				unexpected(p, "'(' expected after NAME! (a macro call)");
		}
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
	case T_LBRACE:
		p->have_tok = 1;
		p->tok = t;
		return block_expr(p);
	case T_IF:
		return if_expr(p, t);
	default:
		p->have_tok = 1;
		p->tok = t;
		unexpected(p, "expression expected");
	}
}

/* D's NAME[K, ...] (N the N_BUILTIN of NAME): the associative array
 * NAME, a map without '@' (D's names never clash with aggregations). */

/* The postfix operators after N: fields, indexes, ++ and --. */
static struct node *postfix_ops(struct parser *p, struct node *n)
{
	int levels = 0;

	for (;;) {
		struct token *t = peek(p);

		if (t->kind == T_DOT || t->kind == T_ARROW ||
		    t->kind == T_LBRACKET || t->kind == T_INC ||
		    t->kind == T_DEC || (t->kind == T_LPAREN && p->d)) {
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
		} else if (t->kind == T_LPAREN && p->d) {
			diag_fatal_d(p->diag, t->loc, E_SYNTAX, "D_FUNC_IDENT",
				     "only a function's name can be called");
		} else if (t->kind == T_LBRACKET && p->d && d_index(p, &n)) {
			;	/* D's arrays: a[k, ...], self->a[k] */
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

		/* (string), (string[N]): today's bpftrace's string casts */
		if (parse_is_type(p, peek(p)) ||
		    (peek(p)->kind == T_IDENT && !strcmp(peek(p)->text, "string"))) {
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

/* N != 0 */
static struct node *nonzero(struct parser *p, struct node *n)
{
	struct node *z = mk(p, N_INT, n->loc), *ne = mk(p, N_BINOP, n->loc);

	ne->op = T_NE;
	ne->a = n;
	ne->b = z;
	return ne;
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

		/* D's logical exclusive or, a ^^ b, at ||'s level: (a != 0)
		 * != (b != 0) */
		if (p->d && k == T_CARET &&
		    p->lx.p < p->lx.end && *p->lx.p == '^') {
			if (1 < min_level) {
				p->tree -= levels;
				return lhs;
			}
			op = take(p);
			take(p);
			chain(p, &op);
			levels++;
			rhs = binary(p, 2);
			n = mk(p, N_BINOP, op.loc);
			n->op = T_NE;
			n->a = nonzero(p, lhs);
			n->b = nonzero(p, rhs);
			n->loc = span(lhs->loc, rhs->loc);
			lhs = n;
			continue;
		}
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

		if (accept(p, T_COLON)) {	/* a ?: b */
			n->kind = N_ELVIS;
			n->a = c;
			n->b = expr(p);
			n->loc = span(c->loc, n->b->loc);
			leave(p);
			return n;
		}

		n->a = c;
		n->b = expr(p);
		/* D: the middle is any expression, an assignment too
		 * (c ? x = 1 : x) */
		if (p->d && parse_is_assign_op(peek(p)->kind))
			n->b = d_assign_value(p, n->b);
		expect(p, T_COLON, "':' expected in the conditional expression (a ? b : c)");
		n->c = expr(p);
		n->loc = span(c->loc, n->c->loc);
		c = n;
	}
	leave(p);
	return c;
}

int parse_is_assign_op(enum tok k)
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

/* for ($v : START..END) { ... } or for ($kv : @map) { ... } after the
 * 'for' KW. */
static struct node *for_stmt(struct parser *p, struct token kw)
{
	struct loc open = expect(p, T_LPAREN, "'(' expected after 'for'").loc;
	struct token v = expect(p, T_VAR, "a $variable expected after 'for ('");
	struct node *n = mk(p, N_FOR, kw.loc), *r;

	n->a = mk(p, N_VAR, v.loc);
	n->a->name = v.text;
	expect(p, T_COLON, "':' expected after the loop variable");
	r = expr(p);
	if (r->kind == N_MAP && peek(p)->kind == T_RPAREN) {
		n->b = r;	/* for ($kv : @map) */
	} else {
		if (peek(p)->kind != T_DOTDOT)
			diag_fatal(p->diag, r->loc, E_SYNTAX,
				   "'..' expected: 'for' takes a range START..END or a @map");
		n->b = mk(p, N_RANGE, take(p).loc);
		n->b->a = r;
		n->b->b = expr(p);
	}
	expect_close(p, T_RPAREN, open);
	p->loop_depth++;
	n->c = block(p, "'for (...)'");
	p->loop_depth--;
	return n;
}

/* The type of `let $x: TYPE`, into N: string or string[N] (N->ival),
 * or a type name as a cast writes it (int32, struct task_struct *). */
static void let_type(struct parser *p, struct node *n)
{
	struct token *t = peek(p);
	struct node *tn;
	bool str = t->kind == T_IDENT && !strcmp(t->text, "string");

	if (str) {
		n->tyname = take(p).text;
	} else {
		if (t->kind != T_IDENT && !parse_is_type(p, t))
			unexpected(p, "a type expected after ':'");
		tn = mk(p, N_CAST, t->loc);	/* its a would be N's */
		parse_type_name(p, tn);
		n->tyname = tn->tyname;
		n->tyname_ptr = tn->tyname_ptr;
		if (tn->tydim > 0)	/* TYPE[N], as the cast's syntax */
			n->ival = (uint64_t)tn->tydim;
		else if (tn->tydim < 0)
			diag_fatal(p->diag, t->loc, E_SYNTAX,
				   "a declared array needs its size: TYPE[N]");
	}
	/* string[N]: its size; TYPE[N]: an array of N */
	if (peek(p)->kind == T_LBRACKET) {
		struct loc open = take(p).loc;
		struct token sz = expect(p, T_INT, "a size expected in [N]");

		if (!sz.ival || sz.ival > 65536)
			diag_fatal(p->diag, sz.loc, E_LIMIT,
				   "a string or array size must be 1 to 65536");
		n->ival = sz.ival;
		expect_close(p, T_RBRACKET, open);
	}
}

/* let $x [: TYPE] [= EXPR], after the 'let' KW: a declaration of a
 * variable in the enclosing block (docs/language.md, "Declarations
 * and scope"). */
static struct node *let_stmt(struct parser *p, struct token kw)
{
	struct token v = expect(p, T_VAR, "a $variable expected after 'let'");
	struct node *n = mk(p, N_LET, kw.loc);

	n->a = mk(p, N_VAR, v.loc);
	n->a->name = v.text;
	n->loc = span(kw.loc, v.loc);
	if (accept(p, T_COLON)) {
		struct loc at = peek(p)->loc;

		let_type(p, n);
		/* type errors point at the type */
		n->loc = at;
		if (p->prev_end.line == at.line)
			n->loc.len = p->prev_end.off - at.off;
	}
	if (peek(p)->kind == T_ASSIGN) {
		struct node *as = mk(p, N_ASSIGN, take(p).loc);

		as->op = T_ASSIGN;
		as->a = n->a;
		as->b = expr(p);
		as->loc = span(n->a->loc, as->b->loc);
		n->b = as;
	}
	return n;
}

/* { statements; EXPR } read as an expression: the statements, then the
 * value, whose ';' must be left out. */
/* Block B read as a value: its last item, an expression (or a block
 * of the same kind, { { 1 } }), becomes the value. */
static struct node *block_value(struct parser *p, struct node *b);

/* An if statement with both branches, ending a block used as a value:
 * the ?: of the branches' values (today's bpftrace). */
static struct node *if_value(struct parser *p, struct node *n)
{
	struct node *c = n->c;

	if (!c)
		diag_fatal(p->diag, n->loc, E_SYNTAX,
			   "an 'if' used as a value needs an 'else'");
	n->kind = N_TERNARY;
	n->b = block_value(p, n->b);
	if (c->kind == N_BLOCK && c->nargs == 1 && c->args[0]->kind == N_IF &&
	    !c->ival)	/* else if */
		n->c = if_value(p, c->args[0]);
	else
		n->c = block_value(p, c);
	return n;
}

static struct node *block_value(struct parser *p, struct node *b)
{
	struct node *last = b->nargs ? b->args[b->nargs - 1] : NULL;

	if (last && last->kind == N_IF) {
		last = if_value(p, last);
	} else if (last && b->ival && last->kind == N_BLOCK) {
		last = block_value(p, last);
	} else if (!last || !b->ival || last->kind != N_EXPRSTMT) {
		diag_fatal(p->diag, last && b->ival ? last->loc : b->loc,
			   E_SYNTAX,
			   "a block used as a value must end in an expression without ';'");
	} else {
		last = last->a;
	}
	b->kind = N_BLOCKEXPR;
	b->args[b->nargs - 1] = last;
	return b;
}

/* if (C) { ...; A } else { ...; B } as a value (today's bpftrace): C ?
 * A : B of the two block expressions; else if chains. */
static struct node *if_expr(struct parser *p, struct token kw)
{
	struct node *n = mk(p, N_TERNARY, kw.loc);
	struct loc open = expect(p, T_LPAREN, "'(' expected after 'if'").loc;

	n->a = expr(p);
	expect_close(p, T_RPAREN, open);
	n->b = block_expr(p);
	expect(p, T_ELSE, "'else' expected: an 'if' used as a value needs both branches");
	if (peek(p)->kind == T_IF) {
		enter(p);
		n->c = if_expr(p, take(p));
		leave(p);
	} else {
		n->c = block_expr(p);
	}
	n->loc = span(kw.loc, n->c->loc);
	return n;
}

static struct node *block_expr(struct parser *p)
{
	int saved = p->in_pred;
	struct node *b;

	p->in_pred = 0;	/* a '/' inside divides */
	b = block_value(p, block(p, "the block"));
	p->in_pred = saved;
	if (p->prev_end.line == b->loc.line)
		b->loc.len = p->prev_end.off - b->loc.off;
	return b;
}

/* Returns the statement and whether it ended in a block (no ';' needed). */
static struct node *stmt(struct parser *p, int *ends_block)
{
	struct token *t = peek(p);
	struct node *n;

	*ends_block = 0;
	if (t->kind == T_IDENT && !strcmp(t->text, "let"))
		return let_stmt(p, take(p));
	/* D declares types at the top only */
	if (p->d && t->kind == T_IDENT && !strcmp(t->text, "typedef"))
		unexpected(p, "a statement expected");
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

		if (e->kind == N_BUILTIN && !strcmp(e->name, "_") &&
		    peek(p)->kind == T_ASSIGN) {
			/* _ = e: e's value dropped on purpose */
			take(p);
			n = mk(p, N_EXPRSTMT, e->loc);
			n->a = expr(p);
		} else if (parse_is_assign_op(peek(p)->kind)) {
			struct token op = take(p);

			n = mk(p, N_ASSIGN, op.loc);
			n->op = op.kind;
			n->a = e;
			if (p->d)
				d_assigned(p, e);
			n->b = expr(p);
			n->loc = span(e->loc, n->b->loc);
			if (p->d && parse_is_assign_op(peek(p)->kind))
				n = d_assign_chain(p, n);
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
			b->ival = 0;
		if (peek(p)->kind == T_RBRACE)
			break;
		if (peek(p)->kind == T_EOF)
			expect_close(p, T_RBRACE, open.loc);
		list_add(p, &l, stmt(p, &ends_block));
		if (peek(p)->kind == T_RBRACE) {
			b->ival = 1;	/* no ';': a block expression's value */
			break;
		}
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

struct node *parse_expr(struct parser *p)
{
	return expr(p);
}

struct node *parse_block(struct parser *p, const char *after)
{
	return block(p, after);
}

/* macro NAME(PARAMS) { BODY } after the 'macro' KW: PARAMS are $x
 * (a variable, by reference), @x (a map) and x (an expression);
 * "macro NAME { }" takes none.  Expanded by lang/macro.c. */
static struct node *parse_macro(struct parser *p, struct token kw)
{
	struct token name = take(p);
	struct node *m = mk(p, N_MACRO, name.loc);
	struct list l = { 0 };

	m->name = name.text;
	m->prefix = stdlib_file(p->diag, kw.loc.file);
	if (peek(p)->kind == T_LPAREN) {
		struct loc open = take(p).loc;

		while (peek(p)->kind != T_RPAREN) {
			struct token t = take(p);
			struct node *a;

			if (t.kind != T_VAR && t.kind != T_MAP && t.kind != T_IDENT) {
				p->tok = t;
				p->have_tok = 1;
				unexpected(p, "a macro parameter ($var, @map or name) expected");
			}
			a = mk(p, t.kind == T_VAR ? N_VAR : t.kind == T_MAP ?
			       N_MAP : N_BUILTIN, t.loc);
			a->name = t.text;
			for (int i = 0; i < l.n; i++)
				if (!strcmp(l.v[i]->name, a->name))
					diag_fatal(p->diag, t.loc, E_MACRO,
						   "macro parameter %s named twice",
						   a->name);
			list_add(p, &l, a);
			if (!accept(p, T_COMMA))
				break;
		}
		expect_close(p, T_RPAREN, open);
	}
	m->args = l.v;
	m->nargs = l.n;
	m->b = block(p, "the macro");
	return m;
}

/* import "PATH"; after the 'import' KW: the file or directory is read
 * in place (lang/import.c). */
static void parse_import(struct parser *p, struct token kw)
{
	struct token path = take(p);

	(void)kw;
	/* the ';' is taken without a look past it: the next token
	 * comes from the imported file */
	expect(p, T_SEMI, "';' expected after import \"PATH\"");
	import_path(&p->lx, path.text, path.loc);
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
	if (kw.loc.file)
		diag_fatal(p->diag, kw.loc, E_CONFIG,
			   "a config block belongs to the script itself, not to a file it imports or includes");
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

/* let @name = KIND(SIZE); at the top level, after the config block and
 * before the probes.  The kind and size are checked by sema, which
 * knows the map's use. */
static void map_decl(struct parser *p, struct program *prog,
		     struct token kw)
{
	struct map_decl *d = arena_alloc(p->arena, sizeof(*d)), **tail;
	struct token name = expect(p, T_MAP,
				   "a @map expected after a top-level 'let'");
	struct token kind;
	struct loc open;

	if (prog->nprobes)
		diag_fatal(p->diag, kw.loc, E_SYNTAX,
			   "a map declaration must come before the first probe");
	d->name = name.text;
	d->loc = name.loc;
	expect(p, T_ASSIGN, "'=' expected after the declared map");
	kind = expect(p, T_IDENT,
		      "a map type expected, as in let @m = hash(100)");
	d->kind = kind.text;
	d->kloc = kind.loc;
	d->sloc = kind.loc;
	open = expect(p, T_LPAREN, "'(' expected after the map type").loc;
	while (peek(p)->kind != T_RPAREN) {
		struct node *e = expr(p);

		if (!d->nargs) {
			d->sloc = e->loc;
			d->size_ok = e->kind == N_INT;
			d->size = e->ival;
		}
		d->nargs++;
		if (!accept(p, T_COMMA))
			break;
	}
	expect_close(p, T_RPAREN, open);
	expect(p, T_SEMI, "';' expected after the map declaration");
	for (tail = &prog->mapdecls; *tail; tail = &(*tail)->next)
		;
	*tail = d;
}

/* Just after the last character that is not blank (a comment, a
 * definition), where a probe would go; 1:1 in an empty script. */
static struct loc text_end(const char *src, size_t len)
{
	const char *end = src + len, *ls = src;
	struct loc l = { 1, 1, 0, 1, 0, 0 };

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
	struct loc l = { 1, 1, SCRIPT_MAX_SIZE, 1, 0, 0 };

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
	struct node **mtail = &prog->macros;
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
	if (o && o->stdlib)
		stdlib_push(&p.lx);
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
		if (t.kind == T_PROBE && !strcmp(t.text, "macro") &&
		    peek(&p)->kind == T_IDENT) {
			*mtail = parse_macro(&p, t);
			mtail = &(*mtail)->next;
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "import") &&
		    peek(&p)->kind == T_STRING) {
			parse_import(&p, t);
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "let") &&
		    peek(&p)->kind == T_MAP) {
			map_decl(&p, prog, t);
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
