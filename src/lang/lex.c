/* lex.c - turns script text into tokens.
 *
 * Two entry points: lex_next for ordinary tokens, and lex_probe for the
 * probe specifications that start each top-level item, whose spelling
 * (paths, '*' wildcards, '+' offsets) would not survive ordinary lexing.
 * The preprocessor (pp.c, pp_macro.c) sits inside: skipping blanks runs
 * the directives that start a line and moves between included files,
 * and lex_next expands macros.
 */
#include "lang/lex_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const spellings[] = {
#define X(name, spelling) spelling,
#include "lang/token.def"
#undef X
};

int tok_binop_level(enum tok k)
{
	switch (k) {
	case T_LOR: return 1;
	case T_LAND: return 2;
	case T_PIPE: return 3;
	case T_CARET: return 4;
	case T_AMP: return 5;
	case T_EQ: case T_NE: return 6;
	case T_LT: case T_GT: case T_LE: case T_GE: return 7;
	case T_SHL: case T_SHR: return 8;
	case T_PLUS: case T_MINUS: return 9;
	case T_STAR: case T_SLASH: case T_PERCENT: return 10;
	default: return 0;
	}
}

const char *tok_spelling(enum tok t)
{
	return (unsigned)t < T_NTOKENS ? spellings[t] : "?";
}

static const struct {
	const char *word;
	enum tok kind;
} keywords[] = {
	{ "if", T_IF }, { "else", T_ELSE }, { "while", T_WHILE }, { "for", T_FOR },
	{ "unroll", T_UNROLL }, { "return", T_RETURN }, { "break", T_BREAK },
	{ "continue", T_CONTINUE }, { "struct", T_STRUCT },
	{ "union", T_UNION }, { "enum", T_ENUM }, { "sizeof", T_SIZEOF },
};

/* Punctuators, longest first so that "<<=" wins over "<<" and "<". */
static const struct {
	const char *s;
	enum tok kind;
} puncts[] = {
	{ "<<=", T_SHL_ASSIGN }, { ">>=", T_SHR_ASSIGN },
	{ "->", T_ARROW }, { "+=", T_ADD_ASSIGN }, { "-=", T_SUB_ASSIGN },
	{ "*=", T_MUL_ASSIGN }, { "/=", T_DIV_ASSIGN }, { "%=", T_MOD_ASSIGN },
	{ "&=", T_AND_ASSIGN }, { "|=", T_OR_ASSIGN }, { "^=", T_XOR_ASSIGN },
	{ "++", T_INC }, { "--", T_DEC }, { "<<", T_SHL }, { ">>", T_SHR },
	{ "<=", T_LE }, { ">=", T_GE }, { "==", T_EQ }, { "!=", T_NE },
	{ "&&", T_LAND }, { "||", T_LOR }, { "..", T_DOTDOT },
	{ "{", T_LBRACE }, { "}", T_RBRACE }, { "(", T_LPAREN },
	{ ")", T_RPAREN }, { "[", T_LBRACKET }, { "]", T_RBRACKET },
	{ ";", T_SEMI }, { ",", T_COMMA }, { ".", T_DOT }, { "?", T_QUESTION },
	{ ":", T_COLON }, { "=", T_ASSIGN }, { "+", T_PLUS }, { "-", T_MINUS },
	{ "*", T_STAR }, { "/", T_SLASH }, { "%", T_PERCENT }, { "&", T_AMP },
	{ "|", T_PIPE }, { "^", T_CARET }, { "~", T_TILDE }, { "!", T_BANG },
	{ "<", T_LT }, { ">", T_GT },
};

void lex_init(struct lexer *lx, const char *src, size_t len,
	      struct arena *a, struct diag *d)
{
	memset(lx, 0, sizeof(*lx));
	lx->src = lx->p = lx->line_start = src;
	lx->end = src + len;
	lx->line = 1;
	lx->arena = a;
	lx->diag = d;
	lx->bol = true;
	/* A shebang line is not part of the program. */
	if (len >= 2 && src[0] == '#' && src[1] == '!') {
		while (lx->p < lx->end && *lx->p != '\n')
			lx->p++;
	}
}

struct loc lex_here(struct lexer *lx, const char *at, int len)
{
	struct loc l;

	l.line = lx->line;
	l.col = (int)(at - lx->line_start) + 1;
	l.off = (int)(at - lx->src);
	l.len = len;
	l.file = lx->file;
	return l;
}

void lex_fail(struct lexer *lx, struct loc loc, enum diag_tag tag,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (lx->soft) {
		char *msg;

		lx->soft_loc = loc;
		lx->soft_tag = tag;
		lx->soft_msg = "?";
		if (vasprintf(&msg, fmt, ap) >= 0) {
			lx->soft_msg = arena_strdup(lx->arena, msg);
			free(msg);
		}
		va_end(ap);
		longjmp(*lx->soft, 1);
	}
	diag_verror(lx->diag, loc, tag, fmt, ap);
	va_end(ap);
	if (lx->diag->fatal)
		longjmp(*lx->diag->fatal, 1);
	exit(1);
}

static _Noreturn void fail(struct lexer *lx, const char *at, int len,
			   const char *msg)
{
	lex_fail(lx, lex_here(lx, at, len), E_LEX, "%s", msg);
}

/* A name (identifier, $variable, @map) from START to the lexer's
 * position, checked against LEX_MAX_NAME. */
static void name_token(struct lexer *lx, struct token *t, const char *start,
		       enum tok kind)
{
	size_t n = (size_t)(lx->p - start);

	if (n > LEX_MAX_NAME)
		lex_fail(lx, lex_here(lx, start, (int)n), E_LIMIT,
			 "name longer than %d bytes", LEX_MAX_NAME);
	t->kind = kind;
	t->text = arena_strndup(lx->arena, start, n);
	t->len = n;
}

void lex_newline(struct lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p + 1;
}

void lex_comment(struct lexer *lx)
{
	const char *start = lx->p, *ls = lx->line_start;
	int line = lx->line;

	lx->p += 2;
	for (;;) {
		if (lx->p + 1 >= lx->end) {
			/* Report where the comment opens. */
			lx->p = start;
			lx->line = line;
			lx->line_start = ls;
			fail(lx, start, 2,
			     "unterminated comment: '*/' expected to close '/*'");
		}
		if (lx->p[0] == '*' && lx->p[1] == '/') {
			lx->p += 2;
			return;
		}
		if (*lx->p == '\n')
			lex_newline(lx);
		lx->p++;
	}
}

/* Skip blanks and comments, and run the directives that start a line;
 * at the end of an included file, go on in the file that included it.
 * In a directive (lx->dline), stop at the end of its line, which a
 * backslash continues.  Returns 1 if a newline was crossed. */
static int skip_space(struct lexer *lx)
{
	int nl = 0;

	for (;;) {
		char c;

		if (lx->p >= lx->end) {
			if (lx->dline || !lx->pp || !pp_pop(lx))
				return nl;
			nl = 1;
			continue;
		}
		c = *lx->p;
		if (c == '\n') {
			if (lx->dline)
				return nl;
			lex_newline(lx);
			lx->p++;
			lx->bol = true;
			nl = 1;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
			   c == '\v') {
			lx->p++;
		} else if (c == '\\' && lx->dline && lx->p + 1 < lx->end &&
			   lx->p[1] == '\n') {
			lx->p++;
			lex_newline(lx);
			lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '/') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '/' && lx->p + 1 < lx->end && lx->p[1] == '*') {
			lex_comment(lx);
		} else if (c == '#' && lx->bol && !lx->dline && lx->pp) {
			pp_directive(lx);
			nl = 1;
		} else {
			return nl;
		}
	}
}

bool lex_peek_semi(struct lexer *lx)
{
	const struct token *t = lx->pp ? pp_peek(lx) : NULL;

	if (t)
		return t->kind == T_SEMI;
	skip_space(lx);
	return lx->p < lx->end && *lx->p == ';';
}

char lex_peek_char(struct lexer *lx)
{
	const struct token *t = lx->pp ? pp_peek(lx) : NULL;

	if (t)
		return t->kind == T_COMMA ? ',' : t->kind == T_SLASH ? '/' :
		       t->kind == T_LBRACE ? '{' : t->kind == T_SEMI ? ';' :
		       t->kind == T_EOF ? 0 : '?';
	skip_space(lx);
	return lx->p < lx->end ? *lx->p : 0;
}

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_';
}


/* A duration suffix after a decimal literal (today's bpftrace): ns us
 * ms s m h d, the value turned into nanoseconds in *V (*OVERFLOW set
 * when it does not fit); the suffix's length, 0 if there is none. */
static int duration(const char *p, const char *end, uint64_t *v,
		    int *overflow)
{
	static const struct { const char *s; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000ULL }, { "m", 60000000000ULL },
		{ "h", 3600000000000ULL }, { "d", 86400000000000ULL },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		size_t n = strlen(units[i].s);

		if ((size_t)(end - p) < n || memcmp(p, units[i].s, n) ||
		    (p + n < end && is_ident((unsigned char)p[n])))
			continue;
		if (*v > UINT64_MAX / units[i].ns)
			*overflow = 1;
		*v *= units[i].ns;
		return (int)n;
	}
	return 0;
}

/* The length of C's integer suffix at P (u, l, ll, ul, ull, lu, llu,
 * either case, "ll" not mixed), 0 if none.  bpftrace 0.17 accepts
 * them after decimal numbers and ignores them: the literal has the
 * type every literal has (sonde accepts them after any number). */
static int suffix(const char *p, const char *end)
{
	int avail = (int)(end - p), n = 0;
	bool u = false;

	if (n < avail && (p[n] | 0x20) == 'u') {
		u = true;
		n++;
	}
	if (n < avail && (p[n] | 0x20) == 'l') {
		n++;
		if (n < avail && p[n] == p[n - 1])
			n++;
		if (!u && n < avail && (p[n] | 0x20) == 'u')
			n++;
	}
	return n;
}

static void lex_number(struct lexer *lx, struct token *t)
{
	const char *start = lx->p;
	uint64_t v = 0;
	unsigned base = 10;
	int digits = 0, overflow = 0;

	if (lx->p[0] == '0' && lx->p + 1 < lx->end &&
	    (lx->p[1] == 'x' || lx->p[1] == 'X')) {
		base = 16;
		lx->p += 2;
	} else if (lx->p[0] == '0' && lx->p + 1 < lx->end &&
		   (lx->p[1] == 'b' || lx->p[1] == 'B')) {
		base = 2;
		lx->p += 2;
	} else if (lx->p[0] == '0') {
		base = 8;
	}
	for (; lx->p < lx->end; lx->p++) {
		int c = (unsigned char)*lx->p;
		unsigned d;

		if (c == '_' && digits)
			continue;
		if (isdigit(c))
			d = (unsigned)(c - '0');
		else if (isxdigit(c) && base == 16)
			d = (unsigned)(tolower(c) - 'a' + 10);
		else
			break;
		if (d >= base)
			fail(lx, lx->p, 1, "digit out of range for this base");
		if (v > (UINT64_MAX - d) / base)
			overflow = 1;
		v = v * base + d;
		digits++;
	}
	if (base != 10 && base != 8 && !digits)
		fail(lx, start, (int)(lx->p - start), "number has no digits");
	if (lx->p < lx->end && is_ident_start((unsigned char)*lx->p)) {
		/* Decimal exponent shorthand: 1e6 == 1000000. */
		if (base == 10 && (*lx->p == 'e' || *lx->p == 'E') &&
		    lx->p + 1 < lx->end && isdigit((unsigned char)lx->p[1])) {
			int e = 0;

			lx->p++;
			while (lx->p < lx->end && isdigit((unsigned char)*lx->p)) {
				e = e * 10 + (*lx->p - '0');
				if (e > 30)
					e = 30;
				lx->p++;
			}
			while (e-- > 0) {
				if (v > UINT64_MAX / 10)
					overflow = 1;
				v *= 10;
			}
		}
		if (base != 16)
			lx->p += duration(lx->p, lx->end, &v, &overflow);
		{
			int sn = suffix(lx->p, lx->end);

			/* C's suffix, for D's typing: len bit 0 'l', bit 1 'u' */
			for (int i = 0; i < sn; i++)
				t->len |= (lx->p[i] | 0x20) == 'l' ? 1u : 2u;
			lx->p += sn;
		}
		if (lx->p < lx->end && is_ident((unsigned char)*lx->p)) {
			const char *q = lx->p;

			while (q < lx->end && is_ident((unsigned char)*q))
				q++;
			if (lx->d)	/* dtrace reads the number, then stops */
				lex_fail(lx, lex_here(lx, start, (int)(q - start)),
					 E_SYNTAX, "syntax error near \"%.*s\"",
					 (int)(lx->p - start), start);
			fail(lx, start, (int)(q - start), "invalid number");
		}
	}
	if (overflow)
		fail(lx, start, (int)(lx->p - start),
		     "integer literal does not fit in 64 bits");
	t->kind = T_INT;
	t->ival = v;
}

static int hexval(int c)
{
	if (isdigit(c))
		return c - '0';
	return tolower(c) - 'a' + 10;
}

/* Decode the escape sequence whose '\\' is just behind lx->p, leaving
 * lx->p after it; gives the byte. */
static int lex_escape(struct lexer *lx)
{
	char c = *lx->p++;

	switch (c) {
	case 'n': return '\n';
	case 't': return '\t';
	case 'r': return '\r';
	case 'a': return '\a';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'v': return '\v';
	case 'e': return 27;
	case '\\': return '\\';
	case '"': return '"';
	case '\'': return '\'';
	case 'x': {
		int v = 0, k = 0;

		while (k < 2 && isxdigit((unsigned char)*lx->p)) {
			v = v * 16 + hexval((unsigned char)*lx->p++);
			k++;
		}
		if (!k)
			fail(lx, lx->p - 2, 2, "\\x needs hex digits");
		return v;
	}
	default:
		if (c >= '0' && c <= '7') {
			int v = c - '0', k = 1;

			while (k < 3 && *lx->p >= '0' && *lx->p <= '7') {
				v = v * 8 + (*lx->p++ - '0');
				k++;
			}
			if (v > 255)
				fail(lx, lx->p - k - 1, k + 1,
				     "octal escape out of range");
			return v;
		}
		fail(lx, lx->p - 2, 2, "unknown escape sequence");
	}
}

/* D's escapes (dtrace-utils' lexer): C's but \e, and any other
 * escaped character (\? \' \c) stays as it is written, backslash and
 * all: -1 then, lx->p after the character. */
static int lex_escape_d(struct lexer *lx)
{
	char c = *lx->p;

	if (c == 'e' || c == '\'' || (!strchr("ntrabfv\\\"x", c) &&
					!(c >= '0' && c <= '7'))) {
		lx->p++;
		return -1;
	}
	return lex_escape(lx);
}

/* D's character constant: up to 8 characters packed as C packs them,
 * the first in the highest byte ('ab' is 0x6162). */
static void lex_char_d(struct lexer *lx, struct token *t)
{
	const char *start = lx->p;
	uint64_t v = 0;
	int n = 0;

	lx->p++;
	while (lx->p < lx->end && *lx->p != '\'' && *lx->p != '\n') {
		int b[2], k = 0;

		if (*lx->p == '\\') {
			lx->p++;
			b[0] = lex_escape_d(lx);
			if (b[0] < 0) {
				b[0] = '\\';
				b[1] = (unsigned char)lx->p[-1];
				k = 1;
			}
		} else {
			b[0] = (unsigned char)*lx->p++;
		}
		for (int i = 0; i <= k; i++, n++)
			v = v << 8 | (uint64_t)(b[i] & 0xff);
	}
	if (lx->p >= lx->end || *lx->p != '\'' || !n)
		fail(lx, start, 1,
		     "a character constant holds 1 to 8 characters: 'c'");
	if (n > 8)
		diag_fatal_d(lx->diag, lex_here(lx, start, (int)(lx->p + 1 - start)),
			     E_LEX, "D_CHR_OFLOW", "character constant is too long");
	lx->p++;
	t->kind = T_INT;
	t->ival = v;
}

/* A character literal ('a', '\n', '\x41') is an int64 of the
 * byte's value, 0..255 (C would make '\xff' a negative char on x86);
 * bpftrace has none. */
static void lex_char(struct lexer *lx, struct token *t)
{
	const char *start = lx->p;
	int v;

	if (lx->d) {
		lex_char_d(lx, t);
		return;
	}
	lx->p++;
	if (lx->p + 1 >= lx->end || *lx->p == '\n' || *lx->p == '\'')
		fail(lx, start, 1,
		     "a character literal holds one character: 'c'");
	if (*lx->p == '\\') {
		lx->p++;
		v = lex_escape(lx);
	} else {
		v = (unsigned char)*lx->p++;
	}
	if (lx->p >= lx->end || *lx->p != '\'')
		fail(lx, start, (int)(lx->p - start),
		     "a character literal holds one character: 'c'");
	lx->p++;
	t->kind = T_INT;
	t->ival = (uint64_t)v;
}

/* Strings keep their escapes resolved; they may hold NUL bytes. */
static void lex_string(struct lexer *lx, struct token *t)
{
	const char *start = lx->p;
	char *buf;
	size_t n = 0;

	lx->p++;
	/* The decoded string is never longer than its spelling. */
	{
		const char *q = lx->p;

		while (q < lx->end && *q != '"' && *q != '\n') {
			if (*q == '\\' && q + 1 < lx->end)
				q++;
			q++;
		}
		if (q >= lx->end || *q != '"')
			fail(lx, start, 1,
			     "unterminated string: '\"' expected to close it");
		buf = arena_alloc(lx->arena, (size_t)(q - lx->p) + 1);
	}
	while (*lx->p != '"') {
		char c = *lx->p++;

		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		if (lx->d) {
			int v = lex_escape_d(lx);

			if (v < 0) {	/* kept as written */
				buf[n++] = '\\';
				buf[n++] = lx->p[-1];
			} else {
				buf[n++] = (char)v;
			}
			continue;
		}
		buf[n++] = (char)lex_escape(lx);
	}
	lx->p++;
	t->kind = T_STRING;
	t->text = buf;
	t->len = n;
}

/* End of file is reported just after the last token (LAST), where a
 * missing '}' or ';' belongs, rather than on the empty line after the
 * final newline.  In a directive, T_EOF is the end of its line. */
static void eof_token(struct token *t, struct loc last)
{
	t->kind = T_EOF;
	t->loc = last;
}

static _Noreturn void bad_char(struct lexer *lx, const char *at)
{
	unsigned char c = (unsigned char)*at;
	int n;

	if (c == 0)
		fail(lx, at, 1, "NUL byte in script");
	if (c >= 0x80) {
		n = utf8_len(at, lx->end);
		if (n == 3 && !memcmp(at, "\xef\xbb\xbf", 3))
			fail(lx, at, 3,
			     "byte order mark (U+FEFF) outside a string: save the script as UTF-8 without one");
		if (n)
			lex_fail(lx, lex_here(lx, at, n), E_LEX,
				 "non-ASCII character '%.*s' outside a string",
				 n, at);
		lex_fail(lx, lex_here(lx, at, 1), E_LEX,
			 "invalid UTF-8 byte 0x%02x outside a string", c);
	}
	if (c == '#')
		fail(lx, at, 1,
		     "unexpected character '#': comments are // or /* */, and a directive (#define, #include) starts its line");
	if (c < 32 || c == 127)
		lex_fail(lx, lex_here(lx, at, 1), E_LEX,
			 "unexpected control character 0x%02x", c);
	lex_fail(lx, lex_here(lx, at, 1), E_LEX, "unexpected character '%c'", c);
}

void lex_scan(struct lexer *lx, struct token *t)
{
	struct loc last = lex_here(lx, lx->p, 1);
	const char *start;
	int c;

	memset(t, 0, sizeof(*t));
	t->nl_before = skip_space(lx);
	start = lx->p;
	if (lx->p >= lx->end || (lx->dline && *lx->p == '\n')) {
		eof_token(t, lx->dline ? lex_here(lx, lx->p, 1) : last);
		return;
	}
	lx->bol = false;
	c = (unsigned char)*lx->p;
	if (isdigit(c)) {
		lex_number(lx, t);
	} else if (is_ident_start(c) || (lx->d && c == '`')) {
		while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
			lx->p++;
		/* D's kernel symbols: `max_pfn, vmlinux`max_pfn, one
		 * identifier that lang/dlower.c reads */
		if (lx->d && lx->p < lx->end && *lx->p == '`') {
			lx->p++;
			while (lx->p < lx->end && (is_ident((unsigned char)*lx->p) ||
						   *lx->p == '.'))
				lx->p++;
		}
		name_token(lx, t, start, T_IDENT);
		for (size_t i = 0; i < ARRAY_SIZE(keywords); i++) {
			if (strcmp(keywords[i].word, t->text) == 0) {
				t->kind = keywords[i].kind;
				break;
			}
		}
	} else if (c == '"') {
		lex_string(lx, t);
	} else if (c == '\'') {
		lex_char(lx, t);
	} else if (c == '@') {
		lx->p++;
		while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
			lx->p++;
		name_token(lx, t, start, T_MAP);
	} else if (c == '$') {
		lx->p++;
		/* D's $$1: the macro argument as a string (len 1 says so) */
		if (lx->d && lx->p + 1 < lx->end && *lx->p == '$' &&
		    isdigit((unsigned char)lx->p[1])) {
			lx->p++;
			t->len = 1;
		}
		if (lx->p < lx->end && *lx->p == '#') {
			lx->p++;
			t->kind = T_NARGS;
		} else if (lx->p < lx->end && isdigit((unsigned char)*lx->p)) {
			uint64_t v = 0;
			int big = 0;

			while (lx->p < lx->end && isdigit((unsigned char)*lx->p)) {
				v = v * 10 + (uint64_t)(*lx->p - '0');
				if (v > 1000000) {
					big = 1;
					v = 1000000;
				}
				lx->p++;
			}
			if (big)
				fail(lx, start, (int)(lx->p - start),
				     "positional parameter number too large (at most $1000000)");
			t->kind = T_POSITIONAL;
			t->ival = v;
		} else if (lx->p < lx->end && is_ident_start((unsigned char)*lx->p)) {
			while (lx->p < lx->end && is_ident((unsigned char)*lx->p))
				lx->p++;
			name_token(lx, t, start, T_VAR);
		} else if (lx->d) {	/* $-1 */
			fail(lx, start, 1, "syntax error near \"$\"");
		} else {
			fail(lx, start, 1, "'$' must start a variable ($name) or a parameter ($1, $#)");
		}
	} else {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(puncts); i++) {
			size_t n;

			if (puncts[i].s[0] != *lx->p)
				continue;
			n = strlen(puncts[i].s);
			if ((size_t)(lx->end - lx->p) >= n &&
			    memcmp(lx->p, puncts[i].s, n) == 0) {
				t->kind = puncts[i].kind;
				lx->p += n;
				break;
			}
		}
		if (i == ARRAY_SIZE(puncts))
			bad_char(lx, start);
	}
	t->loc = lex_here(lx, start, (int)(lx->p - start));
}

void lex_next(struct lexer *lx, struct token *t)
{
	for (;;) {
		if (!lx->pp || !pp_take(lx, t))
			lex_scan(lx, t);
		if (t->kind != T_IDENT || !lx->pp || !pp_expand(lx, t))
			return;
	}
}

/* Characters a probe specification may hold besides '/' (see below). */
static int is_probe_char(int c)
{
	return is_ident(c) || c == ':' || c == '*' || c == '?' || c == '.' ||
	       c == '+' || c == '-' || c == '[' || c == ']' || c == '!' ||
	       c == '@' || c == '~' || c == '$' || c == '#';
}

/* Past the quoted part of a probe spec at lx->p, escapes and all; an
 * unclosed quote is an error. */
static void skip_quoted(struct lexer *lx)
{
	const char *q = lx->p;

	for (lx->p++; lx->p < lx->end && *lx->p != '"' && *lx->p != '\n';
	     lx->p++)
		if (*lx->p == '\\' && lx->p + 1 < lx->end)
			lx->p++;
	if (lx->p >= lx->end || *lx->p != '"')
		fail(lx, q, 1, "unterminated string: '\"' expected to close it");
	lx->p++;
}

/* The spec from START to lx->p with its quoted parts decoded: quotes
 * removed, escapes resolved (usdt:./prog:test:"\"probe1\"" names the
 * probe "probe1", quotes included). */
static char *unquote(struct lexer *lx, const char *start)
{
	char *out = arena_alloc(lx->arena, (size_t)(lx->p - start) + 1);
	const char *saved = lx->p, *end = lx->p;
	size_t n = 0;

	lx->p = start;
	while (lx->p < end) {
		if (*lx->p != '"') {
			out[n++] = *lx->p++;
			continue;
		}
		for (lx->p++; *lx->p != '"';) {
			if (*lx->p == '\\') {
				lx->p++;
				out[n++] = (char)lex_escape(lx);
			} else {
				out[n++] = *lx->p++;
			}
		}
		lx->p++;
	}
	out[n] = 0;
	lx->p = saved;
	return out;
}

/* Whether the provider spelled from S to E names a probe in a user
 * binary, whose second field is a file. */
static int user_provider(const char *s, const char *e)
{
	static const char *const names[] = {
		"uprobe", "uretprobe", "usdt", "u", "ur", "U",
	};
	size_t i, n = (size_t)(e - s);

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], s, n))
			return 1;
	return 0;
}

void lex_probe(struct lexer *lx, struct token *t)
{
	struct loc last = lex_here(lx, lx->p, 1);
	const char *start, *field;
	int c, nfield = 0;
	bool quoted = false;

	if (lx->pp && pp_peek(lx)) {
		lex_next(lx, t);
		return;
	}
	memset(t, 0, sizeof(*t));
	t->nl_before = skip_space(lx);
	start = lx->p;
	/* D with -C: a macro in a description's place ("probe", with
	 * -Dprobe=BEGIN) is expanded; a one-word result is the
	 * description */
	if (lx->d && lx->pp && lx->p < lx->end &&
	    is_ident_start((unsigned char)*lx->p)) {
		const char *q = lx->p;

		while (q < lx->end && is_ident((unsigned char)*q))
			q++;
		if ((q == lx->end || !is_probe_char((unsigned char)*q)) &&
		    pp_macro(lx, arena_strndup(lx->arena, lx->p,
					       (size_t)(q - lx->p)))) {
			lex_next(lx, t);
			if (t->kind == T_IDENT)
				t->kind = T_PROBE;
			return;
		}
	}
	if (lx->p >= lx->end) {
		eof_token(t, last);
		return;
	}
	c = (unsigned char)*lx->p;
	/* a positional parameter may be a whole attach point: $1 { } */
	if (!is_ident_start(c) && !(c == '$' && lx->p + 1 < lx->end &&
				    isdigit((unsigned char)lx->p[1])) &&
	    !(lx->d && (c == ':' || c == '*'))) {	/* D's ":::BEGIN" */
		lex_next(lx, t);
		return;
	}
	lx->bol = false;
	/* A '/' belongs to the spec only inside a field that starts with
	 * '/' or '.' (a path), or in the file field of a user-space probe
	 * (uprobe:bin/prog:fn, a path relative to the working directory);
	 * elsewhere it opens the predicate. */
	field = lx->p;
	while (lx->p < lx->end) {
		c = (unsigned char)*lx->p;
		if (c == '"') {		/* a quoted part: "echo_builtin"+0 */
			quoted = true;
			skip_quoted(lx);
			continue;
		}
		if (c == ':') {
			nfield++;
			field = lx->p + 1;
		} else if (c == '/') {
			if (!(lx->p == field || *field == '/' || *field == '.' ||
			      (nfield == 1 && user_provider(start, field - 1))))
				break;
		} else if (!is_probe_char(c)) {
			break;
		}
		lx->p++;
	}
	t->kind = T_PROBE;
	t->text = quoted ? unquote(lx, start) :
		  arena_strndup(lx->arena, start, (size_t)(lx->p - start));
	t->len = (size_t)(lx->p - start);
	t->loc = lex_here(lx, start, (int)t->len);
}
