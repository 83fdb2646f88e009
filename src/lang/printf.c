/* printf.c - parsing printf formats (see printf.h). */
#include "lang/printf.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum {
	BIG = 100000000,	/* largest width or precision accepted (dtrace takes 10,000,000) */
};

/* Return the message for an unknown conversion character C. */
static const char *unknown(char c)
{
#define U(c) "unknown conversion '%" c "'\0"
	static const char tab[] =
		U(" ") U("!") U("\"") U("#") U("$") U("%") U("&") U("'") U("(") U(")")
		U("*") U("+") U(",") U("-") U(".") U("/") U("0") U("1") U("2") U("3")
		U("4") U("5") U("6") U("7") U("8") U("9") U(":") U(";") U("<") U("=")
		U(">") U("?") U("@") U("A") U("B") U("C") U("D") U("E") U("F") U("G")
		U("H") U("I") U("J") U("K") U("L") U("M") U("N") U("O") U("P") U("Q")
		U("R") U("S") U("T") U("U") U("V") U("W") U("X") U("Y") U("Z") U("[")
		U("\\") U("]") U("^") U("_") U("`") U("a") U("b") U("c") U("d") U("e")
		U("f") U("g") U("h") U("i") U("j") U("k") U("l") U("m") U("n") U("o")
		U("p") U("q") U("r") U("s") U("t") U("u") U("v") U("w") U("x") U("y")
		U("z") U("{") U("|") U("}") U("~");
#undef U
	unsigned char u = (unsigned char)c;

	if (u < 0x20 || u > 0x7e)
		return "unknown conversion";
	return tab + (u - 0x20) * sizeof("unknown conversion '%c'");
}

/* Read decimal digits at *J into *V; -1 if the number is too large. */
static int digits(const char *fmt, size_t len, size_t *j, int *v)
{
	long n = 0;

	while (*j < len && fmt[*j] >= '0' && fmt[*j] <= '9') {
		n = n * 10 + (fmt[*j] - '0');
		if (n > BIG)
			return -1;
		(*j)++;
	}
	*v = (int)n;
	return 0;
}

/* Parse the conversion starting at the '%' at AT into P; NULL, or the
 * error message. */
static const char *spec(const char *fmt, size_t len, size_t at,
			struct fmt_piece *p)
{
	size_t j = at + 1, nf = 0, mod;
	char c;

	if (j < len && fmt[j] == '%') {
		p->conv = '%';
		p->len = 2;
		return NULL;
	}
	while (j < len && fmt[j] && strchr("-+ #0", fmt[j])) {
		if (!memchr(p->flags, fmt[j], nf))
			p->flags[nf++] = fmt[j];
		j++;
	}
	if (j < len && fmt[j] == '*')
		return "'*' width is not supported";
	if (j < len && fmt[j] >= '1' && fmt[j] <= '9' &&
	    digits(fmt, len, &j, &p->width) < 0)
		return "width is too large";
	if (j < len && fmt[j] == '.') {
		j++;
		if (j < len && fmt[j] == '*')
			return "'*' precision is not supported";
		if (digits(fmt, len, &j, &p->prec) < 0)
			return "precision is too large";
	}
	mod = j;
	if (j < len && (fmt[j] == 'h' || fmt[j] == 'l') && j + 1 < len &&
	    fmt[j + 1] == fmt[j])
		j += 2;
	else if (j < len && fmt[j] && strchr("hlzjt", fmt[j]))
		j++;
	if (j >= len)
		return "format ends inside a conversion";
	c = fmt[j];
	if (c == 'g' && j + 1 < len && fmt[j + 1] == 'r') {
		/* %gr: GFP flags, an integer printed as their names */
		if (j != mod)
			return "%gr takes no length modifier";
		p->conv = 'g';
		p->want = FMT_WANT_INT;
		p->len = j + 2 - at;
		return NULL;
	}
	if (!c || !strchr("diuoxXcspr", c))
		return unknown(c);
	p->conv = c;
	p->want = c == 's' ? FMT_WANT_STR : FMT_WANT_INT;
	if (c == 'r') {
		if (j != mod)
			return "%r takes no length modifier";
		p->want = FMT_WANT_BUF;
		if (j + 1 < len && (fmt[j + 1] == 'x' || fmt[j + 1] == 'h'))
			p->rmode = fmt[++j];
	}
	p->len = j + 1 - at;
	return NULL;
}

/* Start piece P at byte I of FMT: a piece of no width or precision,
 * and, when I is not a '%', the literal text up to the next one (true
 * then). */
static bool text_piece(const char *fmt, size_t len, size_t i,
		       struct fmt_piece *p)
{
	const char *q;

	memset(p, 0, sizeof(*p));
	p->want = FMT_WANT_NONE;
	p->off = i;
	p->width = -1;
	p->prec = -1;
	if (fmt[i] == '%')
		return false;
	q = memchr(fmt + i, '%', len - i);
	p->len = (q ? (size_t)(q - fmt) : len) - i;
	return true;
}

/* Sonde's printf format language.  Compared with bpftrace 0.17 (see the
 * rules above) it is stricter where bpftrace silently prints garbage and
 * wider where C printf is well defined:
 *   - "%%" is always a literal '%' piece (conv '%'), so "%%d" is the
 *     text "%d" (bpftrace would take the "%d" as a conversion);
 *   - flags may be any of "-+ #0" (bpftrace: '-' and a leading 0 only),
 *     "%i" is "%d" (bpftrace: text), and "%p" is glibc's pointer
 *     format of the 64-bit value ("0x41", "(nil)" for 0), as in bpftrace;
 *   - any other '%' sequence is an error, not text; note that "50% done"
 *     holds the conversion "% d", so scripts must write "50%% done";
 *   - length modifiers hh h l ll z j t are accepted; fmt_print applies
 *     them the way C and bpftrace do (no modifier = 32 bits);
 *   - %r, %rx and %rh print a buffer as bpftrace does (fmt_bytes), and
 *     take flags, width and precision, applied to that text as %s
 *     would (bpftrace prints "%-8r" as text); so does %gr, GFP flags
 *     named as the kernel names them (bpftrace 0.26, out/gfp.c).
 * Width and precision are limited to BIG. */
int fmt_parse(const char *fmt, size_t len, struct fmt_piece *out, int max,
	      size_t *err_off, const char **err_msg)
{
	size_t i = 0;
	int n = 0;

	while (i < len) {
		struct fmt_piece p;
		const char *msg;

		if (!text_piece(fmt, len, i, &p) &&
		    (msg = spec(fmt, len, i, &p))) {
			if (err_off)
				*err_off = i;
			if (err_msg)
				*err_msg = msg;
			return -1;
		}
		if (n < max)
			out[n] = p;
		n++;
		i += p.len;
	}
	return n;
}


/* D's conversion names (DTrace's dictionary less %k, whose stack
 * argument sonde's D has no record for) and what each consumes. */
static const struct dconv {
	const char *name;
	enum fmt_want want;
} dconvs[] = {
	{ "a", FMT_WANT_INT }, { "A", FMT_WANT_INT }, { "c", FMT_WANT_INT },
	{ "C", FMT_WANT_INT }, { "d", FMT_WANT_INT }, { "i", FMT_WANT_INT },
	{ "o", FMT_WANT_INT }, { "u", FMT_WANT_INT }, { "x", FMT_WANT_INT },
	{ "X", FMT_WANT_INT }, { "p", FMT_WANT_INT }, { "Y", FMT_WANT_INT },
	{ "T", FMT_WANT_INT },
	{ "e", FMT_WANT_INT }, { "E", FMT_WANT_INT }, { "f", FMT_WANT_INT },
	{ "g", FMT_WANT_INT }, { "G", FMT_WANT_INT }, { "k", FMT_WANT_INT },
	{ "hd", FMT_WANT_INT }, { "hi", FMT_WANT_INT }, { "ho", FMT_WANT_INT },
	{ "hu", FMT_WANT_INT }, { "hx", FMT_WANT_INT }, { "hX", FMT_WANT_INT },
	{ "hhd", FMT_WANT_INT }, { "hhi", FMT_WANT_INT },
	{ "hho", FMT_WANT_INT }, { "hhu", FMT_WANT_INT },
	{ "hhx", FMT_WANT_INT }, { "hhX", FMT_WANT_INT },
	{ "lc", FMT_WANT_INT }, { "ld", FMT_WANT_INT }, { "li", FMT_WANT_INT },
	{ "lo", FMT_WANT_INT }, { "lu", FMT_WANT_INT }, { "lx", FMT_WANT_INT },
	{ "lX", FMT_WANT_INT }, { "lld", FMT_WANT_INT },
	{ "lli", FMT_WANT_INT }, { "llo", FMT_WANT_INT },
	{ "llu", FMT_WANT_INT }, { "llx", FMT_WANT_INT },
	{ "llX", FMT_WANT_INT }, { "wc", FMT_WANT_INT },
	{ "s", FMT_WANT_STR }, { "S", FMT_WANT_STR }, { "ls", FMT_WANT_STR },
	{ "ws", FMT_WANT_STR },
};

/* One D conversion at AT (conversion number NUM) into P; NULL or the
 * message, in MSG. */
static const char *dspec(const char *fmt, size_t len, size_t at, int num,
			 struct fmt_piece *p, char *msg, size_t cap)
{
	size_t j = at, nf = 0, nl = 0;
	int dot = 0, ndig = 0;
	char name[8];

	for (;;) {
		char c = ++j < len ? fmt[j] : 0;

		if (c >= '0' && c <= '9') {
			int v = 0;

			if (!dot && !ndig && c == '0') {
				if (!memchr(p->flags, '0', nf) && nf < 6)
					p->flags[nf++] = '0';
				continue;
			}
			if (digits(fmt, len, &j, &v) < 0) {
				snprintf(msg, cap, "format conversion #%d has a width or precision over %d",
					 num, BIG);
				return msg;
			}
			j--;
			*(dot ? &p->prec : &p->width) = v;
			ndig++;
			continue;
		}
		switch (c) {
		case '#': case '+': case '-': case ' ': case '\'':
			/* ': thousands grouping, as LC_NUMERIC says */
			if (!memchr(p->flags, c, nf) && nf < 6)
				p->flags[nf++] = c;
			continue;
		case '*': {
			int bit = dot ? FMT_DYN_PREC : FMT_DYN_WIDTH;

			if (p->dyn & bit) {
				snprintf(msg, cap, "format conversion #%d has more than one '*' specified for the output %s",
					 num, dot ? "precision" : "width");
				return msg;
			}
			p->dyn |= bit;
			continue;
		}
		case '.':
			if (dot++) {
				snprintf(msg, cap, "format conversion #%d has more than one '.' specified",
					 num);
				return msg;
			}
			ndig = 0;
			continue;
		case '?':
			p->width = 16;
			continue;
		case '@':
			p->agg = 1;
			continue;
		case '$':
			snprintf(msg, cap, "format conversion #%d uses unsupported positional format (%%n$)",
				 num);
			return msg;
		case '%':
			if (j == at + 1) {
				p->conv = '%';
				p->len = 2;
				return NULL;
			}
			snprintf(msg, cap, "format conversion #%d cannot be combined with other format flags: %%%%",
				 num);
			return msg;
		case 0:
			snprintf(msg, cap, "format conversion #%d name expected before end of format string",
				 num);
			return msg;
		case 'h': case 'l': case 'L': case 'w':
			if (nl < sizeof(name) - 2)
				name[nl++] = c;
			continue;
		default:
			name[nl++] = c;
			name[nl] = 0;
			break;
		}
		break;
	}
	p->len = j + 1 - at;
	for (size_t i = 0; i < sizeof(dconvs) / sizeof(dconvs[0]); i++) {
		if (strcmp(dconvs[i].name, name))
			continue;
		memcpy(p->name, name, nl + 1);
		p->want = dconvs[i].want;
		p->conv = name[nl - 1];
		p->size = name[0] == 'h' ? (name[1] == 'h' ? 1 : 2) :
			  name[0] == 'l' && nl > 1 ? 8 : 0;
		return NULL;
	}
	snprintf(msg, cap, "format conversion #%d is undefined: %%%s", num, name);
	return msg;
}

int fmt_parse_d(const char *fmt, size_t len, struct fmt_piece *out, int max,
		int agg, size_t *err_off, char *msg, size_t cap,
		const char **tag)
{
	size_t i = 0;
	int n = 0, num = 0;

	while (i < len) {
		struct fmt_piece p;
		const char *bad = NULL;

		if (!text_piece(fmt, len, i, &p)) {
			bad = dspec(fmt, len, i, ++num, &p, msg, cap);
			if (!bad && p.agg && !agg) {
				snprintf(msg, cap, "%%@ conversion requires an aggregation and is not for use with printf( )");
				bad = msg;
				*tag = "D_PRINTF_AGG_CONV";
			} else if (bad) {
				*tag = "D_SYNTAX";
			}
		}
		if (bad) {
			*err_off = i;
			return -1;
		}
		if (n < max)
			out[n] = p;
		n++;
		i += p.len;
	}
	return n;
}
