/* decl.c - C declarations in scripts, as clang accepts them in the
 * scripts bpftrace runs: struct, union and enum definitions (members of
 * any C type, with qualifiers, pointers, multi-dimensional arrays,
 * bitfields, function pointers, nested and anonymous structs and
 * unions), typedefs, and the type names of casts and sizeof.
 *
 *   decl       := typedef specifiers declarator (',' declarator)* ';'
 *               | (struct | union) NAME '{' member* '}' [';']
 *               | enum [NAME] '{' enumerators '}' [';']
 *   member     := specifiers [declarator (',' declarator)*] ';'
 *   specifiers := (qualifier | int-word | typedef-name
 *                 | (struct | union) [NAME] ['{' member* '}']
 *                 | enum [NAME] ['{' enumerators '}'])+
 *   declarator := '*'* ( NAME | '(' '*' NAME ')' '(' ... ')' )
 *                 ('[' [const-expr] ']')* [':' const-expr]
 *
 * The result is syntax only: sema/cdecl.c lays the types out, looking
 * names up in the script's definitions, then in the kernel's BTF.  A
 * member is an N_MEMBER: its type's spelling in tyname ("unsigned
 * long", "struct foo", a typedef's name), its '*'s in tyname_ptr, its
 * array dimensions as N_INT nodes in args, its bit width in cval, and
 * in `a` the definition of a struct, union or enum written in place
 * (a member without a name is an anonymous struct or union, whose
 * members belong to the enclosing one).  As clang does, a ';' missing
 * after the last member or after the closing brace is forgiven.
 */
#include "lang/parse_int.h"
#include "lang/pp.h"

#include <stdint.h>

/* Words that make up a C type, and qualifiers, which change nothing
 * sonde reads. */
static const char *const type_words[] = {
	"signed", "unsigned", "short", "long", "int", "char", "void",
	"_Bool", "bool", "float", "double",
};
static const char *const qualifiers[] = {
	"const", "volatile", "restrict", "__restrict", "__restrict__",
	"register", "static", "extern", "inline", "__inline", "__volatile__",
	"__const", "__signed__", "__user", "__iomem", "__rcu", "__percpu",
	"__kernel", "__force", "__must_check",
};
/* Names of integer types a script may use without declaring them. */
static const char *const int_names[] = {
	"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
	"uint64", "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
	"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
	"uint32_t", "uint64_t", "u_int8_t", "u_int16_t", "u_int32_t",
	"u_int64_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
	"size_t", "ssize_t", "ptrdiff_t", "off_t", "loff_t", "pid_t", "uid_t",
	"gid_t", "mode_t", "dev_t", "ino_t", "time_t", "clockid_t",
	"socklen_t",
};

static bool in(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool is_word(const struct token *t, const char *const *list, size_t n)
{
	return t->kind == T_IDENT && in(list, n, t->text);
}

bool parse_decl_start(const char *word)
{
	return !strcmp(word, "struct") || !strcmp(word, "union") ||
	       !strcmp(word, "enum") || !strcmp(word, "typedef");
}

bool parse_is_type(struct parser *p, const struct token *t)
{
	if (t->kind == T_STRUCT || t->kind == T_UNION || t->kind == T_ENUM)
		return true;
	if (t->kind != T_IDENT)
		return false;
	return in(type_words, ARRAY_SIZE(type_words), t->text) ||
	       in(qualifiers, ARRAY_SIZE(qualifiers), t->text) ||
	       in(int_names, ARRAY_SIZE(int_names), t->text) ||
	       strmap_get(&p->typedefs, t->text) != NULL;
}

/* __attribute__((...)): skipped (packed structs are not laid out as
 * such). */
static bool attribute(struct parser *p)
{
	struct token *t = peek(p);
	int depth = 0;

	if (t->kind != T_IDENT || (strcmp(t->text, "__attribute__") &&
				   strcmp(t->text, "__attribute")))
		return false;
	take(p);
	do {
		struct token x = take(p);

		if (x.kind == T_LPAREN)
			depth++;
		else if (x.kind == T_RPAREN)
			depth--;
		else if (x.kind == T_EOF)
			unexpected(p, "')' expected to end __attribute__");
	} while (depth > 0);
	return true;
}

static void skip_qualifiers(struct parser *p)
{
	while (is_word(peek(p), qualifiers, ARRAY_SIZE(qualifiers)) ||
	       attribute(p))
		if (peek(p)->kind == T_IDENT &&
		    in(qualifiers, ARRAY_SIZE(qualifiers), peek(p)->text))
			take(p);
}

static int64_t const_expr(struct parser *p, int min_prec);

static _Noreturn void out_of_range(struct parser *p, struct loc at)
{
	diag_fatal(p->diag, at, E_TYPE,
		   "constant out of the range of int64 (C's long)");
}

/* A constant operand: an integer, a parenthesized expression, a unary
 * operator, an enumerator defined before, or a kernel constant
 * (TASK_COMM_LEN; script macros are expanded before the parser). */
static int64_t const_primary(struct parser *p)
{
	struct token t = take(p);
	int64_t v;

	switch (t.kind) {
	case T_INT:
		if (t.ival > INT64_MAX)
			out_of_range(p, t.loc);
		return (int64_t)t.ival;
	case T_MINUS:
		/* -9223372036854775808: the one literal above INT64_MAX
		 * that has a negative */
		if (peek(p)->kind == T_INT &&
		    peek(p)->ival == (uint64_t)INT64_MAX + 1) {
			take(p);
			return INT64_MIN;
		}
		v = const_primary(p);
		if (v == INT64_MIN)
			out_of_range(p, t.loc);
		return -v;
	case T_PLUS:
		return const_primary(p);
	case T_TILDE:
		return ~const_primary(p);
	case T_BANG:
		return !const_primary(p);
	case T_LPAREN:
		v = const_expr(p, 0);
		expect_close(p, T_RPAREN, t.loc);
		return v;
	case T_IDENT: {
		struct node *e = strmap_get(&p->enumerators, t.text);

		if (e)
			return e->cval;
		if (pp_constant(&p->lx, t.text, &v))
			return v;
		diag_fatal(p->diag, t.loc, E_IDENT,
			   "'%s' is not a constant known here (an enumerator defined above, a kernel constant, a macro or a number)",
			   t.text);
	}
	case T_VAR: case T_MAP: case T_STRING: case T_POSITIONAL:
	case T_NARGS:
		diag_fatal(p->diag, t.loc, E_TYPE,
			   "an integer constant expected here (a number, an enumerator, a kernel constant), not a value known only when the probe runs");
	default:
		p->tok = t;
		p->have_tok = 1;
		unexpected(p, "a constant expected");
	}
}

/* A op B over int64 as C evaluates an integer constant expression: an
 * overflow, a division by zero or a shift out of range is an error. */
static int64_t const_op(struct parser *p, struct token op, int64_t a,
			int64_t b)
{
	int64_t v = 0;
	bool ok = true;

	switch (op.kind) {
	case T_LOR: return a || b;
	case T_LAND: return a && b;
	case T_PIPE: return a | b;
	case T_CARET: return a ^ b;
	case T_AMP: return a & b;
	case T_EQ: return a == b;
	case T_NE: return a != b;
	case T_LT: return a < b;
	case T_GT: return a > b;
	case T_LE: return a <= b;
	case T_GE: return a >= b;
	case T_SHL: case T_SHR:
		if (b < 0 || b > 63 || (op.kind == T_SHL && a < 0))
			diag_fatal(p->diag, op.loc, E_TYPE,
				   "shift by %lld out of the range of int64",
				   (long long)b);
		return op.kind == T_SHL ? (int64_t)((uint64_t)a << b) : a >> b;
	case T_PLUS: ok = !__builtin_add_overflow(a, b, &v); break;
	case T_MINUS: ok = !__builtin_sub_overflow(a, b, &v); break;
	case T_STAR: ok = !__builtin_mul_overflow(a, b, &v); break;
	default:	/* / and % */
		if (!b)
			diag_fatal(p->diag, op.loc, E_TYPE,
				   "division by zero in a constant");
		ok = !(a == INT64_MIN && b == -1);
		if (ok)
			v = op.kind == T_SLASH ? a / b : a % b;
	}
	if (!ok)
		out_of_range(p, op.loc);
	return v;
}

/* The integer constant expressions of array sizes, bit widths and
 * enumerator values: C's operators (but ?: and the comma) over
 * numbers, enumerators and kernel constants, in int64. */
static int64_t const_expr(struct parser *p, int min_prec)
{
	int64_t a = const_primary(p);

	for (;;) {
		int pr = tok_binop_level(peek(p)->kind);
		struct token op;
		int64_t b;

		if (!pr || pr <= min_prec)
			return a;
		op = take(p);
		b = const_expr(p, pr);
		a = const_op(p, op, a, b);
	}
}

static void members(struct parser *p, struct node *d);
static void enumerators(struct parser *p, struct node *d);

/* struct|union|enum [NAME] ['{' ... '}'] after its keyword KW: the
 * type's spelling, and the definition (made into *DEF) when one is
 * written here. */
static const char *tagged(struct parser *p, struct token kw, struct node **def)
{
	const char *word = tok_spelling(kw.kind);
	struct token *t = peek(p);
	const char *name;

	*def = NULL;
	if (t->kind == T_IDENT) {
		const char *tag = take(p).text, *bq = strrchr(tag, '`');

		/* D: struct D`s is the program's, struct vmlinux`s the
		 * kernel's: sonde's type names are one namespace */
		if (p->d && bq)
			tag = bq + 1;
		name = arena_printf(p->arena, "%s %s", word, tag);
	} else if (t->kind == T_LBRACE) {
		/* anonymous: a name of its own, which no script can spell */
		name = arena_printf(p->arena, "%s (anonymous at %d:%d)", word,
				    kw.loc.line, kw.loc.col);
	} else {
		unexpected(p, "a name or '{' expected after struct, union or enum");
	}
	if (peek(p)->kind != T_LBRACE)
		return name;
	*def = mk(p, kw.kind == T_ENUM ? N_ENUMDEF : N_STRUCTDEF, kw.loc);
	(*def)->name = name;
	if (kw.kind == T_ENUM)
		enumerators(p, *def);
	else
		members(p, *def);
	return name;
}

/* D: WORDS (long, short, signed, unsigned) before a struct, union or
 * enum, whose attribute dtrace names at AT. */
static void bad_attribute(struct parser *p, const char *words, struct loc at)
{
	if (strstr(words, "long"))
		diag_fatal_d(p->diag, at, E_SYNTAX, "D_DECL_LONGINT",
			     "invalid type declaration: long and long long may only be used with integer or floating-point type");
	if (strstr(words, "short"))
		diag_fatal_d(p->diag, at, E_SYNTAX, "D_DECL_SHORTINT",
			     "invalid type declaration: short may only be used with integer type");
	diag_fatal_d(p->diag, at, E_SYNTAX, "D_DECL_SIGNINT",
		     "invalid type declaration: signed and unsigned may only be used with integer type");
}

/* Specifiers into N: tyname (and N->a, a definition written here).
 * ALLOW_DEF: a struct body may follow (members, typedefs). */
static void specifiers(struct parser *p, struct node *n, bool allow_def)
{
	char words[64] = "";
	struct token *t;

	skip_qualifiers(p);
	t = peek(p);
	if (t->kind == T_STRUCT || t->kind == T_UNION || t->kind == T_ENUM) {
		struct node *def;
		struct token kw = take(p);

		n->tyname = tagged(p, kw, &def);
		if (def && !allow_def)
			diag_fatal(p->diag, kw.loc, E_SYNTAX,
				   "a type cannot be defined here");
		n->a = def;
		skip_qualifiers(p);
		return;
	}
	while (is_word(peek(p), type_words, ARRAY_SIZE(type_words))) {
		struct token w = take(p);
		size_t len = strlen(words);

		if (len + strlen(w.text) + 2 > sizeof(words))
			diag_fatal(p->diag, w.loc, E_SYNTAX, "type name too long");
		snprintf(words + len, sizeof(words) - len, "%s%s",
			 len ? " " : "", w.text);
		skip_qualifiers(p);
	}
	t = peek(p);
	if (*words && p->d &&
	    (t->kind == T_STRUCT || t->kind == T_UNION || t->kind == T_ENUM)) {
		take(p);	/* dtrace names the place after the tag */
		if (peek(p)->kind == T_IDENT)
			take(p);
		bad_attribute(p, words, peek(p)->loc);
	}
	/* short void, unsigned void: void takes no attribute */
	if (p->d && strstr(words, "void") && strcmp(words, "void"))
		diag_fatal_d(p->diag, peek(p)->loc, E_SYNTAX, "D_DECL_VOIDATTR",
			     "invalid type declaration: attributes may not be used with void type");
	if (*words) {
		n->tyname = arena_strdup(p->arena, words);
		return;
	}
	if (peek(p)->kind != T_IDENT)
		unexpected(p, "a type expected");
	/* a typedef name: the script's, the usual ones, or the kernel's
	 * (BTF), which cdecl.c looks up */
	n->tyname = take(p).text;
	skip_qualifiers(p);
}

void parse_type_name(struct parser *p, struct node *n)
{
	specifiers(p, n, false);
	while (accept(p, T_STAR)) {
		n->tyname_ptr++;
		skip_qualifiers(p);
	}
	/* int8[8], uint8[]: an array of the type (0.26's postfix syntax) */
	if (!n->tyname_ptr && peek(p)->kind == T_LBRACKET) {
		struct loc open = take(p).loc;

		n->tydim = -1;
		if (peek(p)->kind == T_INT) {
			struct token d = take(p);

			if (d.ival < 1 || d.ival > 4096)
				diag_fatal(p->diag, d.loc, E_SYNTAX,
					   "an array type has 1 to 4096 elements");
			n->tydim = (int)d.ival;
		}
		expect_close(p, T_RBRACKET, open);
	}
}

/* D: one parameter of a prototype, its tokens' summary: whether it is
 * a bare "void", "void NAME", or holds a dynamic array ([int]). */
struct param {
	int ntok;
	bool is_void, named, assoc;
	struct loc at;
};

static void check_param(struct parser *p, const struct param *pm, int index,
			bool last)
{
	if (pm->is_void && pm->named)
		diag_fatal_d(p->diag, pm->at, E_SYNTAX, "D_DECL_PROTO_NAME",
			     "void parameter may not have a name");
	if (pm->is_void && pm->ntok == 1 && (index > 0 || !last))
		diag_fatal_d(p->diag, pm->at, E_SYNTAX, "D_DECL_PROTO_VOID",
			     "void must be sole parameter");
	if (pm->assoc)
		diag_fatal_d(p->diag, pm->at, E_SYNTAX, "D_DECL_PROTO_TYPE",
			     "parameter %d may not be a dynamic array", index + 1);
}

void parse_skip_params(struct parser *p)
{
	struct loc open = expect(p, T_LPAREN, "'(' expected").loc;
	int depth = 1, index = 0;
	struct param pm = { 0 };

	while (depth) {
		struct token t = take(p);

		if (depth == 1 && p->d && t.kind != T_COMMA && t.kind != T_RPAREN) {
			if (!pm.ntok++) {
				pm.at = t.loc;
				pm.is_void = t.kind == T_IDENT && !strcmp(t.text, "void");
			} else if (pm.is_void && pm.ntok == 2 && t.kind == T_IDENT) {
				pm.named = true;
			}
			if (t.kind == T_LBRACKET && (parse_is_type(p, peek(p)) ||
						     (peek(p)->kind == T_IDENT &&
						      !strcmp(peek(p)->text, "string"))))
				pm.assoc = true;
		}
		if (depth == 1 && p->d && (t.kind == T_COMMA || t.kind == T_RPAREN)) {
			if (pm.ntok)
				check_param(p, &pm, index++, t.kind == T_RPAREN);
			memset(&pm, 0, sizeof(pm));
		}
		if (t.kind == T_LPAREN)
			depth++;
		else if (t.kind == T_RPAREN)
			depth--;
		else if (t.kind == T_EOF)
			expect_close(p, T_RPAREN, open);
		else if (p->d && t.kind == T_IDENT &&
			 (!strcmp(t.text, "static") || !strcmp(t.text, "register") ||
			  !strcmp(t.text, "auto") || !strcmp(t.text, "extern")))
			diag_fatal_d(p->diag, t.loc, E_SYNTAX, "D_DECL_PARMCLASS",
				     "inappropriate storage class for a parameter: %s",
				     t.text);
	}
}

/* A declarator into M (already holding the specifiers): pointers, the
 * name (may be absent: the caller decides), array dimensions, and a
 * bit width when BITS_OK. */
static void declarator(struct parser *p, struct node *m, bool bits_ok)
{
	struct list dims = { 0 };

	while (accept(p, T_STAR)) {
		m->tyname_ptr++;
		skip_qualifiers(p);
	}
	if (peek(p)->kind == T_LPAREN) {	/* (*name)(params) */
		struct loc open = take(p).loc;

		expect(p, T_STAR, "'*' expected in a function pointer");
		while (accept(p, T_STAR))	/* (**fpp)(void) */
			skip_qualifiers(p);
		m->name = expect(p, T_IDENT, "a name expected").text;
		/* (*afp[2])(void): an array of function pointers */
		while (peek(p)->kind == T_LBRACKET) {
			struct loc o = take(p).loc;
			struct node *d = mk(p, N_INT, o);
			int64_t v = const_expr(p, 0);

			if (v < 0)
				diag_fatal(p->diag, o, E_TYPE,
					   "an array cannot have %lld elements",
					   (long long)v);
			d->ival = (uint64_t)v;
			expect_close(p, T_RBRACKET, o);
			list_add(p, &dims, d);
		}
		expect_close(p, T_RPAREN, open);
		parse_skip_params(p);
		m->tyname = "void";	/* a plain pointer */
		m->tyname_ptr = 1;
		m->a = NULL;
	} else if (peek(p)->kind == T_IDENT) {
		struct token id = take(p);

		m->name = id.text;
		m->loc = id.loc;
	}
	while (peek(p)->kind == T_LBRACKET) {
		struct loc open = take(p).loc;
		struct node *d = mk(p, N_INT, open);
		int64_t v = 0;

		/* D: int a[string, int], an associative array: its key
		 * types are not kept (sonde's maps take the keys' types) */
		if (p->d && (parse_is_type(p, peek(p)) ||
			     (peek(p)->kind == T_IDENT &&
			      !strcmp(peek(p)->text, "string")))) {
			m->ival = DV_ASSOC;
			m->loc = open;
			while (peek(p)->kind != T_RBRACKET) {
				if (peek(p)->kind == T_EOF)
					expect_close(p, T_RBRACKET, open);
				take(p);
			}
			take(p);
			continue;
		}

		if (p->d && (peek(p)->kind == T_DOT || peek(p)->kind == T_DOTDOT))
			diag_fatal_d(p->diag, peek(p)->loc, E_SYNTAX, "D_DECL_PROTO_VARARGS",
				     "a variable-length argument list may not be an array's subscript");
		if (peek(p)->kind != T_RBRACKET)
			v = const_expr(p, 0);
		if (v < 0 && p->d)
			diag_fatal_d(p->diag, open, E_TYPE, "D_DECL_ARRSUB",
				     "positive integral constant expression or tuple signature expected as array declaration subscript");
		if (v < 0)
			diag_fatal(p->diag, open, E_TYPE,
				   "an array cannot have %lld elements", (long long)v);
		if (v > INT32_MAX && p->d)
			diag_fatal_d(p->diag, open, E_TYPE, "D_DECL_ARRBIG",
				     "array dimension too big");
		d->ival = (uint64_t)v;
		expect_close(p, T_RBRACKET, open);
		list_add(p, &dims, d);
	}
	m->args = dims.v;
	m->nargs = dims.n;
	attribute(p);
	if (bits_ok && accept(p, T_COLON)) {
		struct loc at = peek(p)->loc;
		int64_t w = const_expr(p, 0);

		if (w <= 0 && p->d)
			diag_fatal_d(p->diag, at, E_TYPE, "D_DECL_BFCONST",
				     "positive integral constant expression expected as bit-field size");
		if (w <= 0 || (w > 64 && !p->d))	/* D: too big for its type */
			diag_fatal(p->diag, at, E_SYNTAX,
				   "a bitfield is 1 to 64 bits wide");
		m->cval = w;
	}
	attribute(p);
}

/* One member declaration into D's list: specifiers, then declarators
 * separated by ','; a struct or union without a declarator is an
 * anonymous member. */
static void member_decl(struct parser *p, struct list *l)
{
	struct node spec;

	memset(&spec, 0, sizeof(spec));
	spec.loc = peek(p)->loc;
	specifiers(p, &spec, true);
	if (peek(p)->kind == T_SEMI || peek(p)->kind == T_RBRACE) {
		struct node *m = mk(p, N_MEMBER, spec.loc);

		if (!spec.a || spec.a->kind != N_STRUCTDEF)
			unexpected(p, "a member name expected");
		m->tyname = spec.tyname;
		m->a = spec.a;	/* anonymous: its members are ours */
		list_add(p, l, m);
	} else {
		do {
			struct node *m = mk(p, N_MEMBER, peek(p)->loc);

			m->tyname = spec.tyname;
			m->a = spec.a;
			declarator(p, m, true);
			/* "int : 3;", a bitfield without a name: padding */
			if (!m->name && m->cval)
				m->name = "";
			if (!m->name)
				unexpected(p, "a member name expected");
			for (int i = 0; p->d && *m->name && i < l->n; i++)
				if (l->v[i]->name && !strcmp(l->v[i]->name, m->name))
					diag_fatal_d(p->diag, m->loc, E_SCOPE,
						     "D_UNKNOWN",
						     "failed to define member '%s': Duplicate member or variable name",
						     m->name);
			list_add(p, l, m);
			spec.a = NULL;	/* defined once */
		} while (accept(p, T_COMMA));
	}
	/* clang forgives a missing ';' before the closing brace */
	if (peek(p)->kind != T_RBRACE)
		expect(p, T_SEMI, "';' expected after the member");
}

static void members(struct parser *p, struct node *d)
{
	struct loc open = expect(p, T_LBRACE, "'{' expected to start the definition").loc;
	struct list l = { 0 };

	if (p->d && peek(p)->kind == T_RBRACE)	/* D: no empty struct */
		diag_fatal(p->diag, peek(p)->loc, E_SYNTAX,
			   "syntax error near \"}\"");
	enter(p);
	while (peek(p)->kind != T_RBRACE && peek(p)->kind != T_EOF) {
		if (accept(p, T_SEMI))
			continue;
		member_decl(p, &l);
	}
	expect_close(p, T_RBRACE, open);
	leave(p);
	d->args = l.v;
	d->nargs = l.n;
}

/* '{' NAME ['=' const] (',' ...)* [','] '}' into D; each enumerator an
 * N_MEMBER with its value in cval, counting on from the previous one. */
static void enumerators(struct parser *p, struct node *d)
{
	struct loc open = expect(p, T_LBRACE, "'{' expected to start the definition").loc;
	struct list l = { 0 };
	int64_t next = 0;
	bool at_max = false;	/* the previous value was INT64_MAX */

	if (p->d && peek(p)->kind == T_RBRACE)	/* D: no empty enum */
		diag_fatal(p->diag, peek(p)->loc, E_SYNTAX,
			   "syntax error near \"}\"");
	while (peek(p)->kind != T_RBRACE) {
		struct token e = expect(p, T_IDENT, "enumerator name expected");
		struct node *m = mk(p, N_MEMBER, e.loc);
		static const char *const ckw[] = {
			"char", "short", "int", "long", "signed", "unsigned",
			"float", "double", "void",
		};

		m->name = e.text;
		for (size_t i = 0; p->d && i < ARRAY_SIZE(ckw); i++)
			if (!strcmp(e.text, ckw[i]))
				diag_fatal(p->diag, e.loc, E_SYNTAX,
					   "syntax error near \"%s\"", e.text);
		if (p->d && strmap_get(&p->enumerators, e.text))
			diag_fatal_d(p->diag, e.loc, E_SCOPE, "D_DECL_IDRED",
				     "identifier redeclared: %s", e.text);
		if (accept(p, T_ASSIGN)) {
			if (p->d && peek(p)->kind == T_STRING) {
				take(p);	/* dtrace says it where it reads on */
				diag_fatal_d(p->diag, peek(p)->loc, E_TYPE,
					     "D_DECL_ENCONST",
					     "enumerator '%s' must be assigned to an integral constant expression",
					     e.text);
			}
			next = const_expr(p, 0);
		} else if (at_max) {
			diag_fatal(p->diag, e.loc, E_TYPE,
				   "enumerator value out of the range of int64 (one more than the previous one)");
		}
		/* D's enumerators are ints */
		if (p->d && (next > INT32_MAX || next < INT32_MIN))
			diag_fatal_d(p->diag, peek(p)->loc, E_TYPE, "D_DECL_ENOFLOW",
				     "enumerator '%s' value overflows INT_MAX (2147483647)",
				     e.text);
		m->cval = next;
		at_max = next == INT64_MAX;
		if (!at_max)
			next++;
		list_add(p, &l, m);
		if (!strmap_get(&p->enumerators, m->name))
			strmap_put(&p->enumerators, p->arena, m->name, m);
		if (!accept(p, T_COMMA))
			break;
	}
	expect_close(p, T_RBRACE, open);
	d->args = l.v;
	d->nargs = l.n;
}

/* typedef specifiers declarator (',' declarator)* ';': one N_TYPEDEF
 * per name (a list through next), each an N_MEMBER-like node. */
/* Do typedefs A and B name one type (as written)? */
static bool same_type(const struct node *a, const struct node *b)
{
	if (strcmp(a->tyname, b->tyname) || a->tyname_ptr != b->tyname_ptr ||
	    a->nargs != b->nargs)
		return false;
	for (int i = 0; i < a->nargs; i++)
		if (a->args[i]->ival != b->args[i]->ival)
			return false;
	return true;
}

static struct node *type_alias(struct parser *p, struct token kw)
{
	struct node spec, *first = NULL, **tail = &first;

	memset(&spec, 0, sizeof(spec));
	specifiers(p, &spec, true);
	do {
		struct node *t = mk(p, N_TYPEDEF, kw.loc);

		t->tyname = spec.tyname;
		t->a = spec.a;
		declarator(p, t, false);
		if (!t->name)
			unexpected(p, "the typedef's name expected");
		if (p->d && strmap_get(&p->typedefs, t->name) &&
		    !same_type(strmap_get(&p->typedefs, t->name), t))
			diag_fatal_d(p->diag, t->loc, E_SCOPE, "D_DECL_IDRED",
				     "typedef redeclared: %s", t->name);
		strmap_put(&p->typedefs, p->arena, t->name, t);
		spec.a = NULL;
		*tail = t;
		tail = &t->next;
	} while (accept(p, T_COMMA));
	expect(p, T_SEMI, "';' expected after the typedef");
	return first;
}

void parse_specifiers(struct parser *p, struct node *n)
{
	specifiers(p, n, true);
}

void parse_declarator(struct parser *p, struct node *m)
{
	declarator(p, m, false);
}

struct node *parse_decl(struct parser *p, struct token kw)
{
	struct node spec, *d;

	memset(&spec, 0, sizeof(spec));
	if (!strcmp(kw.text, "typedef"))
		return type_alias(p, kw);
	kw.kind = !strcmp(kw.text, "struct") ? T_STRUCT :
		  !strcmp(kw.text, "union") ? T_UNION : T_ENUM;
	/* struct { ... }; at the top would define nothing anyone can
	 * name (an enum's enumerators can be, though) */
	if (kw.kind != T_ENUM && peek(p)->kind != T_IDENT)
		unexpected(p, "a name expected after struct or union");
	tagged(p, kw, &d);
	if (!d) {	/* struct foo; a declaration: nothing to lay out */
		d = mk(p, N_STRUCTDEF, kw.loc);
		expect(p, T_SEMI, "'{' or ';' expected after the name");
		return d;
	}
	/* peek only at a character: a probe may follow, lexed otherwise */
	if (lex_peek_semi(&p->lx))
		take(p);
	return d;
}
