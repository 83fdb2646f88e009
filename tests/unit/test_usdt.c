/* test_usdt.c - unit tests for src/catalog/usdt.c: every operand form, and note
 * sections that are well formed, truncated or corrupt (which must be
 * skipped and counted, never read past).
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "catalog/usdt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arch.h"

#include "check.h"

/* Symbols of a made-up file: counter at 0x4010, probe at 0x1100. */
static int sym(void *ctx, const char *name, uint64_t *addr)
{
	(void)ctx;
	if (!strcmp(name, "counter") || !strcmp(name, "counter.0")) {
		*addr = 0x4010;
		return 0;
	}
	return -1;
}

struct want {
	const char *text;
	enum usdt_loc loc;
	int size;
	int is_signed;
	int base, shift, index, scale;
	int64_t off;
};

static void operand(const struct want *w)
{
	struct usdt_arg a[USDT_MAX_ARGS];
	bool many;
	int n = usdt_parse_args(w->text, 0x1100, sym, NULL, a, &many);
	char what[160];
	bool ok;

	ok = n == 1 && !many && a[0].loc == w->loc;
	if (ok && w->loc != USDT_BAD)
		ok = a[0].size == w->size && a[0].is_signed == w->is_signed &&
		     a[0].base == w->base && a[0].shift == w->shift &&
		     a[0].index == w->index && a[0].scale == w->scale &&
		     a[0].off == w->off;
	if (ok && w->loc == USDT_BAD)
		ok = a[0].err != NULL;
	snprintf(what, sizeof(what), "operand '%s': got n=%d loc=%d size=%d signed=%d base=%d shift=%d index=%d scale=%d off=%lld err=%s",
		 w->text, n, n ? (int)a[0].loc : -1, a[0].size, a[0].is_signed,
		 a[0].base, a[0].shift, a[0].index, a[0].scale,
		 (long long)a[0].off, a[0].err ? a[0].err : "-");
	check(ok, what);
}

static void operands(void)
{
	int di = pt_regs_offset("rdi"), ax = pt_regs_offset("rax");
	int bp = pt_regs_offset("rbp"), sp = pt_regs_offset("rsp");
	int bx = pt_regs_offset("rbx"), r8 = pt_regs_offset("r8");
	const struct want tab[] = {
		{ "-4@%edi", USDT_REG, 4, 1, di, 0, -1, 1, 0 },
		{ "8@%rax", USDT_REG, 8, 0, ax, 0, -1, 1, 0 },
		{ "1@%al", USDT_REG, 1, 0, ax, 0, -1, 1, 0 },
		{ "-1@%ah", USDT_REG, 1, 1, ax, 8, -1, 1, 0 },
		{ "2@%r8w", USDT_REG, 2, 0, r8, 0, -1, 1, 0 },
		{ "-2@%bx", USDT_REG, 2, 1, bx, 0, -1, 1, 0 },
		{ "%rdi", USDT_REG, 8, 0, di, 0, -1, 1, 0 },
		{ "4@$5", USDT_CONST, 4, 0, -1, 0, -1, 1, 5 },
		{ "1@$-56", USDT_CONST, 1, 0, -1, 0, -1, 1, -56 },
		{ "-8@$0x10", USDT_CONST, 8, 1, -1, 0, -1, 1, 16 },
		{ "8@$counter", USDT_CONST, 8, 0, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 },
		{ "8@$counter+8", USDT_CONST, 8, 0, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 + 8 },
		{ "-8@16(%rbp)", USDT_MEM, 8, 1, bp, 0, -1, 1, 16 },
		{ "8@(%rsp)", USDT_MEM, 8, 0, sp, 0, -1, 1, 0 },
		{ "-4@-20(%rbp)", USDT_MEM, 4, 1, bp, 0, -1, 1, -20 },
		{ "4@-12(%rbp,%rax,4)", USDT_MEM, 4, 0, bp, 0, ax, 4, -12 },
		{ "4@(%rbp,%rax)", USDT_MEM, 4, 0, bp, 0, ax, 1, 0 },
		{ "4@(,%rax,8)", USDT_MEM, 4, 0, -1, 0, ax, 8, 0 },
		{ "-4@counter(%rip)", USDT_MEM, 4, 1, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 },
		{ "-4@counter.0(%rip)", USDT_MEM, 4, 1, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 },
		{ "-4@counter+12(%rip)", USDT_MEM, 4, 1, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 + 12 },
		{ "-4@counter-4(%rip)", USDT_MEM, 4, 1, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 - 4 },
		{ "4@counter(,%rax,4)", USDT_MEM, 4, 0, PT_REGS_IP, 0, ax, 4, 0x4010 - 0x1100 },
		{ "4@counter(%rbx)", USDT_MEM, 4, 0, PT_REGS_IP, 0, bx, 1, 0x4010 - 0x1100 },
		{ "4@counter", USDT_MEM, 4, 0, PT_REGS_IP, 0, -1, 1, 0x4010 - 0x1100 },
		{ "8@4096", USDT_MEM, 8, 0, -1, 0, -1, 1, 4096 },
		/* symbol and displacement add as addresses do, wrapping */
		{ "8@$counter+9223372036854775807", USDT_CONST, 8, 0, PT_REGS_IP, 0, -1, 1,
		  (int64_t)(0x4010 - 0x1100 + (uint64_t)INT64_MAX) },
		{ "8@counter+9223372036854775807(%rip)", USDT_MEM, 8, 0, PT_REGS_IP, 0, -1, 1,
		  (int64_t)(0x4010 - 0x1100 + (uint64_t)INT64_MAX) },
		{ "3@%rax", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "16@%xmm0", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@%xmm0", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@%foo", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@%eflags", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@nosuch(%rip)", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@8(%rip)", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@8(%rbp", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@8(%rbp,%rax,3)", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@counter(%rbp,%rax,2)", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@()", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@$", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@$5x", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "@%rax", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "x@%rax", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "-9223372036854775808@%rax", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@%rax)", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
		{ "8@99999999999999999999999", USDT_BAD, 0, 0, 0, 0, 0, 0, 0 },
	};
	struct usdt_arg a[USDT_MAX_ARGS];
	char many[40 * 8 + 1] = "";
	bool too;
	int n;

	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		operand(&tab[i]);
	n = usdt_parse_args("", 0, sym, NULL, a, &too);
	check(n == 0 && !too, "empty args: no operand");
	n = usdt_parse_args("  -4@%edi   8@$5\t-8@16(%rbp) ", 0, sym, NULL, a, &too);
	check(n == 3 && a[1].loc == USDT_CONST && a[2].loc == USDT_MEM &&
	      a[1].text_off == 12 && a[1].text_len == 4, "three operands, blanks");
	n = usdt_parse_args("8@$counter", 0, NULL, NULL, a, &too);
	check(n == 1 && a[0].loc == USDT_BAD, "symbol without a resolver");
	for (int i = 0; i < 40; i++)
		strcat(many, "8@%rax ");
	n = usdt_parse_args(many, 0, sym, NULL, a, &too);
	check(n == USDT_MAX_ARGS && too, "more than USDT_MAX_ARGS operands");
	check(!strcmp(usdt_arg_type(&(struct usdt_arg){ .size = 4, .is_signed = true }), "int32"),
	      "usdt_arg_type int32");
}

/* A note section builder. */
struct buf {
	unsigned char b[4096];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

static void pad4(struct buf *b)
{
	while (b->n % 4)
		b->b[b->n++] = 0;
}

/* One note; DESC_EXTRA is added to the true descsz. */
static void note(struct buf *b, const char *owner, uint32_t type,
		 uint64_t pc, const char *prov, const char *name,
		 const char *args, int desc_extra)
{
	size_t desc = 24 + strlen(prov) + strlen(name) + strlen(args) + 3;

	put32(b, (uint32_t)strlen(owner) + 1);
	put32(b, (uint32_t)(desc + desc_extra));
	put32(b, type);
	put(b, owner, strlen(owner) + 1);
	pad4(b);
	put64(b, pc);
	put64(b, 0x2000);
	put64(b, 0);
	put(b, prov, strlen(prov) + 1);
	put(b, name, strlen(name) + 1);
	put(b, args, strlen(args) + 1);
	pad4(b);
}

struct seen {
	int n;
	char last[64];
	uint64_t pc;
};

static void got(void *arg, const char *prov, const char *name,
		const char *args, const uint64_t addr[3])
{
	struct seen *s = arg;

	s->n++;
	snprintf(s->last, sizeof(s->last), "%s:%s:%s", prov, name, args);
	s->pc = addr[0];
}

static int parse(const struct buf *b, size_t len, struct seen *s, int *bad)
{
	memset(s, 0, sizeof(*s));
	*bad = 0;
	return usdt_parse_section(b->b, len, 8, false, 4, got, s, bad);
}

static void sections(void)
{
	struct buf b = { .n = 0 };
	struct seen s;
	int bad, n;
	uint32_t v;
	unsigned char *copy;

	note(&b, "stapsdt", 3, 0x1100, "myapp", "start", "-4@%edi 8@%rsi", 0);
	note(&b, "GNU", 3, 0x1200, "x", "y", "", 0);	/* another owner */
	note(&b, "stapsdt", 1, 0x1300, "x", "y", "", 0);	/* another type */
	note(&b, "stapsdt", 3, 0x1400, "myapp", "stop", "", 0);
	n = parse(&b, b.n, &s, &bad);
	check(n == 2 && bad == 0 && !strcmp(s.last, "myapp:stop:") &&
	      s.pc == 0x1400, "two stapsdt notes among others");

	/* every truncation: no crash, never more than the whole */
	for (size_t len = 0; len < b.n; len++) {
		copy = malloc(len ? len : 1);
		memcpy(copy, b.b, len);
		bad = 0;
		memset(&s, 0, sizeof(s));
		n = usdt_parse_section(copy, len, 8, false, 4, got, &s, &bad);
		free(copy);
		if (n > 2 || n < 0) {
			check(0, "truncated section");
			break;
		}
	}
	check(1, "every truncation of a section");

	/* namesz and descsz beyond the section */
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "p", "n", "", 0);
	v = 0xffffffff;
	memcpy(b.b, &v, 4);
	n = parse(&b, b.n, &s, &bad);
	check(n == 0 && bad == 1, "namesz 0xffffffff");
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "p", "n", "", 1000);
	n = parse(&b, b.n, &s, &bad);
	check(n == 0 && bad == 1, "descsz past the end");
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "p", "n", "", 0);
	v = 0xfffffff0;
	memcpy(b.b + 4, &v, 4);
	n = parse(&b, b.n, &s, &bad);
	check(n == 0 && bad == 1, "descsz 0xfffffff0");

	/* desc shorter than its strings: args loses its NUL */
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "p", "n", "abc", -1);
	note(&b, "stapsdt", 3, 0x1104, "p", "m", "", 0);
	n = parse(&b, b.n, &s, &bad);
	check(n == 1 && bad == 1 && s.pc == 0x1104, "unterminated args skipped");
	/* desc too short for the three addresses */
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "p", "n", "", -10);
	n = parse(&b, b.n, &s, &bad);
	check(n == 0 && bad >= 1, "desc shorter than the addresses");
	/* an empty provider or name */
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "", "n", "", 0);
	n = parse(&b, b.n, &s, &bad);
	check(n == 0 && bad == 1, "empty provider");

	/* random corruption of a good section: never a crash (ASan) */
	b.n = 0;
	note(&b, "stapsdt", 3, 0x1100, "myapp", "start", "-4@%edi 8@%rsi", 0);
	note(&b, "stapsdt", 3, 0x1200, "myapp", "stop", "8@$1", 0);
	srand(1);
	for (int i = 0; i < 20000; i++) {
		size_t len = b.n - (size_t)(rand() % 8);
		struct usdt_arg a[USDT_MAX_ARGS];
		bool too;

		copy = malloc(b.n);
		memcpy(copy, b.b, b.n);
		for (int k = rand() % 4; k >= 0; k--)
			copy[rand() % (int)b.n] = (unsigned char)rand();
		bad = 0;
		usdt_parse_section(copy, len, 8, false, 4, got, &s, &bad);
		/* and the operand parser over the same garbage */
		copy[b.n - 1] = 0;
		usdt_parse_args((const char *)copy + 40, 0, sym, NULL, a, &too);
		free(copy);
	}
	check(1, "random corruption");

	/* 8-byte aligned notes, and a big-endian 32-bit file's */
	{
		unsigned char be[64] = {
			0, 0, 0, 8,  0, 0, 0, 18,  0, 0, 0, 3,
			's', 't', 'a', 'p', 's', 'd', 't', 0,
			0, 0, 0x11, 0,  0, 0, 0x20, 0,  0, 0, 0, 0,
			'p', 0, 'n', 0, 0, 0,
		};

		memset(&s, 0, sizeof(s));
		bad = 0;
		n = usdt_parse_section(be, 40, 4, true, 4, got, &s, &bad);
		check(n == 1 && bad == 0 && s.pc == 0x1100 && !strcmp(s.last, "p:n:"),
		      "big-endian 32-bit note");
	}
}

int main(void)
{
	operands();
	sections();
	return check_summary();
}
