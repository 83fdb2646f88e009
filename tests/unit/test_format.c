/* test_format.c - unit tests for src/out/format.c.
 *
 * The expected histogram rows, stats lines and printf outputs below were
 * captured from bpftrace v0.17.0 on a test machine (see the rules comment
 * at the top of src/out/format.c); each test feeds the same bucket counts or
 * arguments that produced them.  Prints one line per failed check and
 * "N passed, N failed"; exits 1 if any check failed.
 */
#include "out/format.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct tally {
	int pass;
	int fail;
};

/* Print BYTES of S with C escapes, so a failure shows invisible bytes. */
static void show(const char *s, size_t n)
{
	size_t i;

	putchar('"');
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\\' || c == '"')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\%03o", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Count a check; on failure print WHAT and both byte strings. */
static void same(struct tally *t, const char *what, const char *got,
		 size_t glen, const char *want, size_t wlen)
{
	if (glen == wlen && memcmp(got, want, glen) == 0) {
		t->pass++;
		return;
	}
	t->fail++;
	printf("FAIL %s:\n  got  ", what);
	show(got, glen);
	printf("\n  want ");
	show(want, wlen);
	putchar('\n');
}

/* Count a check of a plain condition. */
static void ok(struct tally *t, const char *what, int cond)
{
	if (cond) {
		t->pass++;
		return;
	}
	t->fail++;
	printf("FAIL %s\n", what);
}

/* A memory stream and its buffer, to capture what a function writes. */
struct cap {
	FILE *f;
	char *buf;
	size_t len;
};

/* Open a capture stream. */
static void cap_open(struct cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f) {
		perror("open_memstream");
		exit(2);
	}
}

/* Close C and compare what was written with WANT (WLEN bytes). */
static void cap_is(struct tally *t, struct cap *c, const char *what,
		   const char *want, size_t wlen)
{
	fclose(c->f);
	same(t, what, c->buf, c->len, want, wlen);
	free(c->buf);
}

/* fmt_hist of B[0..NB) must print exactly WANT. */
static void hist_is(struct tally *t, const char *what, const uint64_t *b,
		    int nb, const char *want)
{
	struct cap c;

	cap_open(&c);
	fmt_hist(c.f, b, nb);
	cap_is(t, &c, what, want, strlen(want));
}

/* fmt_hist_div of B[0..NB) with DIV must print exactly WANT. */
static void histdiv_is(struct tally *t, const char *what, const uint64_t *b,
		       int nb, uint64_t div, const char *want)
{
	struct cap c;

	cap_open(&c);
	fmt_hist_div(c.f, b, nb, div, false);
	cap_is(t, &c, what, want, strlen(want));
}

/* fmt_lhist of B[0..NB) with MIN, MAX, STEP must print exactly WANT. */
static void lhist_is(struct tally *t, const char *what, const uint64_t *b,
		     int nb, int64_t min, int64_t max, int64_t step,
		     const char *want)
{
	struct cap c;

	cap_open(&c);
	fmt_lhist(c.f, b, nb, min, max, step, false);
	cap_is(t, &c, what, want, strlen(want));
}

/* fmt_stats must print exactly WANT. */
static void stats_is(struct tally *t, const char *what, uint64_t count,
		     int64_t total, const char *want)
{
	struct cap c;

	cap_open(&c);
	fmt_stats(c.f, count, total);
	cap_is(t, &c, what, want, strlen(want));
}

/* An integer argument (bits as the caller widened them). */
static struct fmt_arg iarg(uint64_t v)
{
	struct fmt_arg a;

	memset(&a, 0, sizeof(a));
	a.is_signed = 1;
	a.i = v;
	return a;
}

/* A string argument of at most N bytes. */
static struct fmt_arg sarg(const char *s, size_t n)
{
	struct fmt_arg a;

	memset(&a, 0, sizeof(a));
	a.is_str = 1;
	a.s = s;
	a.slen = n;
	return a;
}

/* fmt_print of FMT (FLEN bytes) with ARGS must return 0 and print WANT
 * (WLEN bytes). */
static void print_is(struct tally *t, const char *fmt, size_t flen,
		     const struct fmt_arg *args, int nargs, const char *want,
		     size_t wlen)
{
	struct cap c;
	char what[160];
	int rc;

	snprintf(what, sizeof(what), "fmt_print(\"%.100s\")", fmt);
	cap_open(&c);
	rc = fmt_print(c.f, fmt, flen, args, nargs);
	ok(t, what, rc == 0);
	cap_is(t, &c, what, want, wlen);
}

/* Same as print_is for NUL-terminated FMT and WANT. */
static void print_s(struct tally *t, const char *fmt,
		    const struct fmt_arg *args, int nargs, const char *want)
{
	print_is(t, fmt, strlen(fmt), args, nargs, want, strlen(want));
}

/* fmt_parse of FMT must fail at OFF with message MSG. */
static void parse_bad(struct tally *t, const char *fmt, size_t off,
		      const char *msg)
{
	struct fmt_piece p[8];
	size_t eoff = 9999;
	const char *emsg = "";
	char what[160];
	int n;

	n = fmt_parse(fmt, strlen(fmt), p, 8, &eoff, &emsg);
	snprintf(what, sizeof(what), "fmt_parse(\"%s\") fails", fmt);
	ok(t, what, n == -1);
	snprintf(what, sizeof(what), "fmt_parse(\"%s\") error offset", fmt);
	ok(t, what, eoff == off);
	snprintf(what, sizeof(what), "fmt_parse(\"%s\") error message", fmt);
	same(t, what, emsg, strlen(emsg), msg, strlen(msg));
}

/* Pieces, offsets, flags, width and precision of a good format. */
static void test_parse(struct tally *t)
{
	const char *f = "a%5.2ldb%%c%-08xz%s%hhu%.d%+ #0i%p%lc";
	struct fmt_piece p[16];
	size_t eoff;
	const char *emsg;
	int n;

	n = fmt_parse(f, strlen(f), p, 16, &eoff, &emsg);
	ok(t, "parse: piece count", n == 13);
	if (n != 13)
		return;
	ok(t, "parse: text a", p[0].want == FMT_WANT_NONE && p[0].off == 0 &&
	   p[0].len == 1 && p[0].conv == 0);
	ok(t, "parse: %5.2ld", p[1].want == FMT_WANT_INT && p[1].off == 1 &&
	   p[1].len == 6 && p[1].conv == 'd' && p[1].width == 5 &&
	   p[1].prec == 2 && p[1].flags[0] == 0);
	ok(t, "parse: text b", p[2].want == FMT_WANT_NONE && p[2].off == 7 &&
	   p[2].len == 1);
	ok(t, "parse: %%", p[3].want == FMT_WANT_NONE && p[3].off == 8 &&
	   p[3].len == 2 && p[3].conv == '%');
	ok(t, "parse: text c", p[4].off == 10 && p[4].len == 1);
	ok(t, "parse: %-08x", p[5].want == FMT_WANT_INT && p[5].off == 11 &&
	   p[5].len == 5 && p[5].conv == 'x' && p[5].width == 8 &&
	   p[5].prec == -1 && strcmp(p[5].flags, "-0") == 0);
	ok(t, "parse: text z", p[6].off == 16 && p[6].len == 1);
	ok(t, "parse: %s", p[7].want == FMT_WANT_STR && p[7].conv == 's' &&
	   p[7].width == -1 && p[7].prec == -1 && p[7].len == 2);
	ok(t, "parse: %hhu", p[8].want == FMT_WANT_INT && p[8].conv == 'u' &&
	   p[8].len == 4);
	ok(t, "parse: %.d", p[9].conv == 'd' && p[9].prec == 0 &&
	   p[9].len == 3);
	ok(t, "parse: %+ #0i", p[10].conv == 'i' && p[10].len == 6 &&
	   strcmp(p[10].flags, "+ #0") == 0);
	ok(t, "parse: %p", p[11].conv == 'p' && p[11].want == FMT_WANT_INT);
	ok(t, "parse: %lc", p[12].conv == 'c' && p[12].want == FMT_WANT_INT &&
	   p[12].len == 3);

	n = fmt_parse("%d%d%d", 6, p, 2, &eoff, &emsg);
	ok(t, "parse: count beyond max", n == 3 && p[1].off == 2);
	n = fmt_parse("", 0, p, 16, &eoff, &emsg);
	ok(t, "parse: empty format", n == 0);
	n = fmt_parse("%--5d", 5, p, 16, &eoff, &emsg);
	ok(t, "parse: repeated flag kept once",
	   n == 1 && strcmp(p[0].flags, "-") == 0 && p[0].width == 5);
	n = fmt_parse("x%%y", 4, NULL, 0, NULL, NULL);
	ok(t, "parse: NULL out with max 0", n == 3);
	/* bpftrace prints "50% done" as text; for sonde "% d" converts */
	n = fmt_parse("50% done", 8, p, 16, &eoff, &emsg);
	ok(t, "parse: \"50% done\" has a % d conversion",
	   n == 3 && p[1].conv == 'd' && strcmp(p[1].flags, " ") == 0);

	parse_bad(t, "%q", 0, "unknown conversion '%q'");
	parse_bad(t, "ab %f", 3, "unknown conversion '%f'");
	parse_bad(t, "%d %lf", 3, "unknown conversion '%f'");
	parse_bad(t, "%5.3e", 0, "unknown conversion '%e'");
	parse_bad(t, "%hhq", 0, "unknown conversion '%q'");
	parse_bad(t, "%lll", 0, "unknown conversion '%l'");
	parse_bad(t, "%\"", 0, "unknown conversion '%\"'");
	parse_bad(t, "%\\", 0, "unknown conversion '%\\'");
	parse_bad(t, "%~", 0, "unknown conversion '%~'");
	parse_bad(t, "%\001", 0, "unknown conversion");
	parse_bad(t, "abc%", 3, "format ends inside a conversion");
	parse_bad(t, "%5", 0, "format ends inside a conversion");
	parse_bad(t, "x%-", 1, "format ends inside a conversion");
	parse_bad(t, "%5.", 0, "format ends inside a conversion");
	parse_bad(t, "%ll", 0, "format ends inside a conversion");
	parse_bad(t, "%*d", 0, "'*' width is not supported");
	parse_bad(t, "a%-*d", 1, "'*' width is not supported");
	parse_bad(t, "%.*s", 0, "'*' precision is not supported");
	parse_bad(t, "%999999999d", 0, "width is too large");
	parse_bad(t, "%.999999999d", 0, "precision is too large");
}

/* printf outputs captured from bpftrace 0.17 plus C semantics. */
static void test_print(struct tally *t)
{
	struct fmt_arg a[12];
	char big[400];
	int k;

	/* printf("%d %u %x %lld %ld %zd %jd %td %hhu %hu %lu %c\n",
	 * 5000000000 (x10), -1, 0x4142), as bpftrace 0.17 prints it: a
	 * conversion without a length modifier takes C's int (32 bits). */
	for (k = 0; k < 10; k++)
		a[k] = iarg(5000000000u);
	a[10] = iarg((uint64_t)-1);
	a[11] = iarg(0x4142);
	print_s(t, "%d %u %x %lld %ld %zd %jd %td %hhu %hu %lu %c\n", a, 12,
		"705032704 705032704 2a05f200 5000000000 5000000000 "
		"5000000000 5000000000 5000000000 0 61952 "
		"18446744073709551615 B\n");

	/* 32-bit unless l, ll, z, j, t, as bpftrace 0.17:
	 * printf("%d|%x|%x|%lx|%hhd|%hd|%u|%llu|%d|%d\n",
	 * (uint64)0xffffffff, -1, (int32)-1, -1, 300, 70000, -1, -1,
	 * (uint8)255, (int16)-1) */
	a[0] = iarg(0xffffffffu);
	a[1] = iarg((uint64_t)-1);
	a[2] = iarg((uint64_t)-1);
	a[3] = iarg((uint64_t)-1);
	a[4] = iarg(300);
	a[5] = iarg(70000);
	a[6] = iarg((uint64_t)-1);
	a[7] = iarg((uint64_t)-1);
	a[8] = iarg(255);
	a[9] = iarg((uint64_t)-1);
	a[0].is_signed = 0;
	a[8].is_signed = 0;
	print_s(t, "%d|%x|%x|%lx|%hhd|%hd|%u|%llu|%d|%d\n", a, 10,
		"-1|ffffffff|ffffffff|ffffffffffffffff|44|4464|4294967295|"
		"18446744073709551615|255|-1\n");

	/* $x = (uint32)4294967295; printf("%d %u %ld\n", $x, $x, $x): the
	 * conversion picks the width, as bpftrace 0.17 */
	a[0] = iarg(4294967295u);
	a[0].is_signed = 0;
	a[1] = a[0];
	a[2] = a[0];
	print_s(t, "%d %u %ld\n", a, 3, "-1 4294967295 4294967295\n");

	/* bpftrace: printf("%lu %lx %ld %lx %c|%5%|%-3c|\n", (int32)-1,
	 * (int8)-1, (uint32)4294967295, (uint16)65535, 0x100, 65) minus the
	 * "%5%" that sonde rejects */
	a[0] = iarg((uint64_t)-1);
	a[1] = iarg((uint64_t)-1);
	a[2] = iarg(4294967295u);
	a[3] = iarg(65535);
	a[4] = iarg(0x100);
	a[5] = iarg(65);
	print_s(t, "%lu %lx %ld %lx %c|%%|%-3c|\n", a, 6,
		"18446744073709551615 ffffffffffffffff 4294967295 ffff |%|A  |\n");

	/* bpftrace: printf("%5d|%-5d|%05d|%-05d|%.3d|%5.3x|%o|%X|%c\n", ...) */
	for (k = 0; k < 5; k++)
		a[k] = iarg(65);
	a[5] = iarg(65);
	a[6] = iarg(8);
	a[7] = iarg(255);
	a[8] = iarg(65);
	print_s(t, "%5d|%-5d|%05d|%-05d|%.3d|%5.3x|%o|%X|%c\n", a, 9,
		"   65|65   |00065|65   |065|  041|10|FF|A\n");

	/* bpftrace: printf("[%p][%p][%-8.3s][%5s][%.2s][%5c][%-3c|][%s]\n",
	 * 0, -1, "abcdef", "ab", "xyz", 65, 66, "") */
	a[0] = iarg(0);
	a[1] = iarg((uint64_t)-1);
	a[2] = sarg("abcdef", 64);
	a[3] = sarg("ab", 64);
	a[4] = sarg("xyz", 64);
	a[5] = iarg(65);
	a[6] = iarg(66);
	a[7] = sarg("", 64);
	print_s(t, "[%p][%p][%-8.3s][%5s][%.2s][%5c][%-3c|][%s]\n", a, 8,
		"[(nil)][0xffffffffffffffff][abc     ][   ab][xy][    A][B  |][]\n");

	/* printf("[%x][%X][%o][%lo][%lX]\n", -1, 255, -1, -1, -1), as
	 * bpftrace 0.17 */
	a[0] = iarg((uint64_t)-1);
	a[1] = iarg(255);
	a[2] = a[0];
	a[3] = a[0];
	a[4] = a[0];
	print_s(t, "[%x][%X][%o][%lo][%lX]\n", a, 5,
		"[ffffffff][FF][37777777777][1777777777777777777777]"
		"[FFFFFFFFFFFFFFFF]\n");

	/* bpftrace: printf("[%lp][%5p][%-20p]\n", 1, 2, 3) */
	a[0] = iarg(1);
	a[1] = iarg(2);
	a[2] = iarg(3);
	print_s(t, "[%lp][%5p][%-20p]\n", a, 3,
		"[0x1][  0x2][0x3                 ]\n");

	/* bpftrace: "%c" of 0 prints nothing, the rest goes on */
	a[0] = iarg(0);
	print_s(t, "a%cb|\n", a, 1, "ab|\n");
	print_s(t, "[%5c]", a, 1, "[    ]");

	/* "%%" is always "%" (bpftrace 0.17 leaves it "%%" after the last
	 * conversion or with no arguments) */
	print_s(t, "100%%\n", NULL, 0, "100%\n");
	a[0] = iarg(5);
	print_s(t, "%d 100%%\n", a, 1, "5 100%\n");
	a[1] = iarg(6);
	print_s(t, "%d%%|%d\n", a, 2, "5%|6\n");
	print_s(t, "%%%d%%", a, 1, "%5%");

	/* A NUL in the text is written as it is (bpftrace 0.17 drops the
	 * rest of its segment and that segment's conversion) */
	a[0] = iarg(1);
	a[1] = iarg(2);
	print_is(t, "x\0y%d|%d\n", 9, a, 2, "x\0y1|2\n", 7);
	print_is(t, "%d a\0b\n", 7, a, 1, "1 a\0b\n", 6);
	print_is(t, "a\0b|\n", 5, NULL, 0, "a\0b|\n", 5);
	print_is(t, "a\0%%b%d|%d", 10, a, 2, "a\0%b1|2", 7);
	print_is(t, "%d\0", 3, a, 1, "1\0", 2);

	/* bpftrace: "\t" and friends were resolved by the lexer */
	print_s(t, "tab\there \"q\" back\\\\ octA A\n", NULL, 0,
		"tab\there \"q\" back\\\\ octA A\n");

	/* strings: slen bound, stop at NUL, precision and width */
	a[0] = sarg("abcdef", 3);
	a[1] = sarg("ab\0cd", 5);
	a[2] = sarg("hello", 5);
	a[3] = sarg(NULL, 0);
	print_s(t, "[%s][%s][%-7.4s][%s]", a, 4, "[abc][ab][hell   ][]");
	print_s(t, "[%5.1s][%.0s][%-3s]", (const struct fmt_arg[]){
		sarg("xyz", 3), sarg("xyz", 3), sarg("ab", 2) }, 3,
		"[    x][][ab ]");

	/* C flags that bpftrace 0.17 does not parse but sonde accepts */
	a[0] = iarg(42);
	a[1] = iarg(42);
	a[2] = iarg(255);
	a[3] = iarg(8);
	a[4] = iarg(42);
	a[5] = iarg((uint64_t)-42);
	print_s(t, "%+d|% d|%#x|%#o|%i|%+li", a, 6, "+42| 42|0xff|010|42|-42");

	/* 64-bit conversions of the bits, whatever is_signed says */
	a[0] = iarg((uint64_t)-1);
	a[0].is_signed = 0;
	a[1] = iarg((uint64_t)-1);
	a[2] = iarg(0x8000000000000000u);
	print_s(t, "%ld %lu %lld %jx %zo", (const struct fmt_arg[]){
		a[0], a[1], a[2], a[2], a[2] }, 5,
		"-1 18446744073709551615 -9223372036854775808 "
		"8000000000000000 1000000000000000000000");

	/* missing arguments and wrong kinds print nothing for that spot */
	a[0] = iarg(1);
	print_s(t, "[%d][%d]", a, 1, "[1][]");
	print_s(t, "[%d]", NULL, 0, "[]");
	a[0] = sarg("s", 1);
	a[1] = iarg(7);
	print_s(t, "[%d][%s]", a, 2, "[][]");

	/* a wide field needs more than the stack buffer */
	memset(big, ' ', 299);
	big[299] = '7';
	big[300] = 0;
	a[0] = iarg(7);
	print_s(t, "%300d", a, 1, big);
	memset(big, '0', 349);
	big[349] = '9';
	big[350] = 0;
	a[0] = iarg(9);
	print_s(t, "%.350ld", a, 1, big);

	/* many pieces (more than fmt_print keeps on its stack) */
	{
		char fmt[200], want[200];
		struct fmt_arg many[40];
		int n = 0, w = 0;

		for (k = 0; k < 40; k++) {
			many[k] = iarg((uint64_t)k);
			n += sprintf(fmt + n, "%%d,");
			w += sprintf(want + w, "%d,", k);
		}
		print_s(t, fmt, many, 40, want);
	}

	/* a bad format returns -1 */
	{
		struct cap c;

		cap_open(&c);
		ok(t, "fmt_print bad format returns -1",
		   fmt_print(c.f, "%q", 2, NULL, 0) == -1);
		cap_is(t, &c, "fmt_print bad format prints nothing", "", 0);
	}
}

/* hist rows captured from bpftrace 0.17 (fx comments name the program). */
/* hist(x, k): every value lies in its bucket's [low, next low), for
 * values around each power of two and each k; k = 0 is log2 + 2. */
static void test_hist_bits(struct tally *t)
{
	int bad = 0, k0 = 0;

	for (int k = 0; k <= 5; k++) {
		for (int p = 0; p < 64; p++) {
			for (int d = -3; d <= 3; d++) {
				uint64_t v = (1ull << p) + (uint64_t)d, lo, hi;
				int i = hist_bucket(v, false, k);
				bool top;

				if (d < 0 && p < 2)
					continue;
				if (i < 1 || i >= hist_nbuckets(k)) {
					bad++;
				} else if (i <= 2 << k) {
					bad += v != (uint64_t)i - 1;
				} else {
					top = !hist_low(i, k, &hi);
					bad += !hist_low(i - 1, k, &lo) || v < lo ||
					       (!top && v >= hi);
				}
				if (k == 0 && v && i != 2 + 63 - __builtin_clzll(v))
					k0++;
			}
		}
	}
	ok(t, "hist_bucket in its bucket", !bad);
	ok(t, "hist_bucket k 0 is log2 + 2", !k0);
	ok(t, "hist_bucket of a negative", hist_bucket(5, true, 3) == 0);
	ok(t, "hist_nbuckets", hist_nbuckets(0) == 66 && hist_nbuckets(5) == 1921);
	ok(t, "hist_bucket of 2^64 - 1", hist_bucket(UINT64_MAX, false, 5) ==
	   hist_nbuckets(5) - 1 && hist_bucket(UINT64_MAX, false, 0) == 65);
}

static void test_hist(struct tally *t)
{
	uint64_t b[66];
	int64_t i;

	/* BEGIN { @h=hist(5); @h=hist(0); @h=hist(-1); @h=hist(1000); } */
	memset(b, 0, sizeof(b));
	b[0] = 1;
	b[1] = 1;
	b[4] = 1;
	b[11] = 1;
	hist_is(t, "hist ex1", b, 66,
		"(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[0]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[1]                    0 |                                                    |\n"
		"[2, 4)                 0 |                                                    |\n"
		"[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)              0 |                                                    |\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);

	/* while ($i < 100) { @h = hist($i); $i++; } */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	for (i = 1; i < 100; i++) {
		int k = 2;

		while ((1LL << (k - 1)) <= i)
			k++;
		b[k]++;
	}
	hist_is(t, "hist loop 0..99", b, 66,
		"[0]                    1 |@                                                   |\n"
		"[1]                    1 |@                                                   |\n"
		"[2, 4)                 2 |@@                                                  |\n"
		"[4, 8)                 4 |@@@@@                                               |\n"
		"[8, 16)                8 |@@@@@@@@@@@                                         |\n"
		"[16, 32)              16 |@@@@@@@@@@@@@@@@@@@@@@@                             |\n"
		"[32, 64)              32 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@      |\n"
		"[64, 128)             36 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);

	/* 52 x hist(5), 15 x hist(100), 30 x hist(1000), hist(100000):
	 * 15 of 52 gives 15 '@' (double arithmetic would give 14) */
	memset(b, 0, sizeof(b));
	b[4] = 52;
	b[8] = 15;
	b[11] = 30;
	b[18] = 1;
	hist_is(t, "hist float bars", b, 66,
		"[4, 8)                52 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)             15 |@@@@@@@@@@@@@@@                                     |\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)             30 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@                      |\n"
		"[1K, 2K)               0 |                                                    |\n"
		"[2K, 4K)               0 |                                                    |\n"
		"[4K, 8K)               0 |                                                    |\n"
		"[8K, 16K)              0 |                                                    |\n"
		"[16K, 32K)             0 |                                                    |\n"
		"[32K, 64K)             0 |                                                    |\n"
		"[64K, 128K)            1 |@                                                   |\n"
		);

	/* hist(1<<10), hist(1<<31) */
	memset(b, 0, sizeof(b));
	b[12] = 1;
	b[33] = 1;
	hist_is(t, "hist K..G labels", b, 66,
		"[1K, 2K)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[2K, 4K)               0 |                                                    |\n"
		"[4K, 8K)               0 |                                                    |\n"
		"[8K, 16K)              0 |                                                    |\n"
		"[16K, 32K)             0 |                                                    |\n"
		"[32K, 64K)             0 |                                                    |\n"
		"[64K, 128K)            0 |                                                    |\n"
		"[128K, 256K)           0 |                                                    |\n"
		"[256K, 512K)           0 |                                                    |\n"
		"[512K, 1M)             0 |                                                    |\n"
		"[1M, 2M)               0 |                                                    |\n"
		"[2M, 4M)               0 |                                                    |\n"
		"[4M, 8M)               0 |                                                    |\n"
		"[8M, 16M)              0 |                                                    |\n"
		"[16M, 32M)             0 |                                                    |\n"
		"[32M, 64M)             0 |                                                    |\n"
		"[64M, 128M)            0 |                                                    |\n"
		"[128M, 256M)           0 |                                                    |\n"
		"[256M, 512M)           0 |                                                    |\n"
		"[512M, 1G)             0 |                                                    |\n"
		"[1G, 2G)               0 |                                                    |\n"
		"[2G, 4G)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);

	/* hist(1<<20), hist(1<<30), hist(1<<50) (saturates to [2G, 4G)) */
	memset(b, 0, sizeof(b));
	b[22] = 1;
	b[32] = 1;
	b[33] = 1;
	hist_is(t, "hist M/G labels", b, 66,
		"[1M, 2M)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[2M, 4M)               0 |                                                    |\n"
		"[4M, 8M)               0 |                                                    |\n"
		"[8M, 16M)              0 |                                                    |\n"
		"[16M, 32M)             0 |                                                    |\n"
		"[32M, 64M)             0 |                                                    |\n"
		"[64M, 128M)            0 |                                                    |\n"
		"[128M, 256M)           0 |                                                    |\n"
		"[256M, 512M)           0 |                                                    |\n"
		"[512M, 1G)             0 |                                                    |\n"
		"[1G, 2G)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[2G, 4G)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);

	/* hist(1) twice */
	memset(b, 0, sizeof(b));
	b[2] = 2;
	hist_is(t, "hist single [1]", b, 66,
		"[1]                    2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);

	/* hist(3), hist(65535), hist(65536), hist(-5) twice */
	memset(b, 0, sizeof(b));
	b[0] = 2;
	b[3] = 1;
	b[17] = 1;
	b[18] = 1;
	hist_is(t, "hist negative + 64K", b, 66,
		"(..., 0)               2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[0]                    0 |                                                    |\n"
		"[1]                    0 |                                                    |\n"
		"[2, 4)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[4, 8)                 0 |                                                    |\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)              0 |                                                    |\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)              0 |                                                    |\n"
		"[1K, 2K)               0 |                                                    |\n"
		"[2K, 4K)               0 |                                                    |\n"
		"[4K, 8K)               0 |                                                    |\n"
		"[8K, 16K)              0 |                                                    |\n"
		"[16K, 32K)             0 |                                                    |\n"
		"[32K, 64K)             1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[64K, 128K)            1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		);

	/* @h = hist($i * $i * 7) for $i in 0..999 and 0..499 */
	memset(b, 0, sizeof(b));
	for (i = 0; i < 1000; i++) {
		int64_t v = i * i * 7;
		int k = 1;

		if (v > 0)
			for (k = 2; (1LL << (k - 1)) <= v; k++)
				;
		b[k]++;
		if (i == 499)
			hist_is(t, "hist big500", b, 66,
				"[0]                    1 |                                                    |\n"
				"[1]                    0 |                                                    |\n"
				"[2, 4)                 0 |                                                    |\n"
				"[4, 8)                 1 |                                                    |\n"
				"[8, 16)                0 |                                                    |\n"
				"[16, 32)               1 |                                                    |\n"
				"[32, 64)               1 |                                                    |\n"
				"[64, 128)              1 |                                                    |\n"
				"[128, 256)             2 |                                                    |\n"
				"[256, 512)             2 |                                                    |\n"
				"[512, 1K)              4 |@                                                   |\n"
				"[1K, 2K)               5 |@@                                                  |\n"
				"[2K, 4K)               7 |@@@                                                 |\n"
				"[4K, 8K)              10 |@@@@                                                |\n"
				"[8K, 16K)             14 |@@@@@@                                              |\n"
				"[16K, 32K)            20 |@@@@@@@@@                                           |\n"
				"[32K, 64K)            28 |@@@@@@@@@@@@                                        |\n"
				"[64K, 128K)           40 |@@@@@@@@@@@@@@@@@@                                  |\n"
				"[128K, 256K)          57 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
				"[256K, 512K)          80 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@                |\n"
				"[512K, 1M)           114 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				"[1M, 2M)             112 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ |\n"
				);
	}
	hist_is(t, "hist big1000", b, 66,
		"[0]                    1 |                                                    |\n"
		"[1]                    0 |                                                    |\n"
		"[2, 4)                 0 |                                                    |\n"
		"[4, 8)                 1 |                                                    |\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               1 |                                                    |\n"
		"[32, 64)               1 |                                                    |\n"
		"[64, 128)              1 |                                                    |\n"
		"[128, 256)             2 |                                                    |\n"
		"[256, 512)             2 |                                                    |\n"
		"[512, 1K)              4 |                                                    |\n"
		"[1K, 2K)               5 |@                                                   |\n"
		"[2K, 4K)               7 |@                                                   |\n"
		"[4K, 8K)              10 |@@                                                  |\n"
		"[8K, 16K)             14 |@@@                                                 |\n"
		"[16K, 32K)            20 |@@@@                                                |\n"
		"[32K, 64K)            28 |@@@@@@                                              |\n"
		"[64K, 128K)           40 |@@@@@@@@@                                           |\n"
		"[128K, 256K)          57 |@@@@@@@@@@@@@                                       |\n"
		"[256K, 512K)          80 |@@@@@@@@@@@@@@@@@@                                  |\n"
		"[512K, 1M)           114 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[1M, 2M)             160 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@                |\n"
		"[2M, 4M)             227 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[4M, 8M)             225 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ |\n"
		);

	/* bucket counts set in the BPF map by hand: wide counts, and bars in
	 * float (1073741823 of 2147483647 is 26, 2147483646 is 52) */
	memset(b, 0, sizeof(b));
	b[4] = 2147483646;
	b[8] = 2147483647;
	b[11] = 1073741823;
	hist_is(t, "hist wide counts 1", b, 66,
		"[4, 8)          2147483646 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)       2147483647 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)       1073741823 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		);
	b[4] = 1000000000;
	b[8] = 2147483647;
	b[11] = 99999999;
	hist_is(t, "hist wide counts 2", b, 66,
		"[4, 8)          1000000000 |@@@@@@@@@@@@@@@@@@@@@@@@                            |\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |                                                    |\n"
		"[64, 128)       2147483647 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[128, 256)             0 |                                                    |\n"
		"[256, 512)             0 |                                                    |\n"
		"[512, 1K)       99999999 |@@                                                  |\n"
		);

	/* print(@h, 0, 2): counts divided, bars from the real counts */
	memset(b, 0, sizeof(b));
	b[4] = 3;
	b[7] = 1;
	histdiv_is(t, "hist div 2 [1]", b, 66, 2,
		"[4, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[8, 16)                0 |                                                    |\n"
		"[16, 32)               0 |                                                    |\n"
		"[32, 64)               0 |@@@@@@@@@@@@@@@@@                                   |\n"
		);
	memset(b, 0, sizeof(b));
	b[4] = 1;
	histdiv_is(t, "hist div 2 [2]", b, 66, 2,
		"[4, 8)                 0 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		);
	histdiv_is(t, "hist div 0 is 1", b, 66, 0,
		"[4, 8)                 1 |"
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");

	/* beyond bpftrace 0.17: buckets above 2^32 and counts above 2^31 */
	memset(b, 0, sizeof(b));
	hist_is(t, "hist all zero", b, 66, "");
	hist_is(t, "hist no buckets", b, 0, "");
	memset(b, 0, sizeof(b));
	b[42] = 3;
	b[44] = 1;
	hist_is(t, "hist T labels", b, 66,
		"[1T, 2T)               3 |"
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		"[2T, 4T)               0 |"
		"                                                    |\n"
		"[4T, 8T)               1 |"
		"@@@@@@@@@@@@@@@@@                                   |\n");
	memset(b, 0, sizeof(b));
	b[64] = 2500000000u;
	b[65] = 5000000000u;
	hist_is(t, "hist E labels, big counts", b, 66,
		"[4E, 8E)        2500000000 |"
		"@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		"[8E, 16E)       5000000000 |"
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	memset(b, 0, sizeof(b));
	b[5] = 1;
	hist_is(t, "hist nb bounds the rows", b, 5, "");
	hist_is(t, "hist last bucket", b, 6,
		"[8, 16)                1 |"
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
}

/* lhist rows captured from bpftrace 0.17. */
static void test_lhist(struct tally *t)
{
	uint64_t b[1000];
	int i;

	/* @l=lhist(5,0,100,10); lhist(150,...); lhist(-3,...) */
	memset(b, 0, sizeof(b));
	b[0] = 1;
	b[1] = 1;
	b[11] = 1;
	lhist_is(t, "lhist ex1", b, 12, 0, 100, 10,
		 "(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[0, 10)                1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[10, 20)               0 |                                                    |\n"
		 "[20, 30)               0 |                                                    |\n"
		 "[30, 40)               0 |                                                    |\n"
		 "[40, 50)               0 |                                                    |\n"
		 "[50, 60)               0 |                                                    |\n"
		 "[60, 70)               0 |                                                    |\n"
		 "[70, 80)               0 |                                                    |\n"
		 "[80, 90)               0 |                                                    |\n"
		 "[90, 100)              0 |                                                    |\n"
		 "[100, ...)             1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(55,0,100,10) */
	memset(b, 0, sizeof(b));
	b[6] = 1;
	lhist_is(t, "lhist one row", b, 12, 0, 100, 10,
		 "[50, 60)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(5000 and 2048, 0, 1000000, 1024): K labels */
	memset(b, 0, sizeof(b));
	b[3] = 1;
	b[5] = 1;
	lhist_is(t, "lhist K labels", b, 978, 0, 1000000, 1024,
		 "[2K, 3K)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[3K, 4K)               0 |                                                    |\n"
		 "[4K, 5K)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(5000000, 0, 10000000, 1000000): label wider than 16 */
	memset(b, 0, sizeof(b));
	b[6] = 1;
	lhist_is(t, "lhist long label", b, 12, 0, 10000000, 1000000,
		 "[5000000, 6000000)       1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(-100, 0, 10, 1) and lhist(100, 0, 10, 1) */
	memset(b, 0, sizeof(b));
	b[0] = 1;
	lhist_is(t, "lhist below min", b, 12, 0, 10, 1,
		 "(..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );
	memset(b, 0, sizeof(b));
	b[11] = 1;
	lhist_is(t, "lhist above max", b, 12, 0, 10, 1,
		 "[10, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(3 and 7, 0, 10, 1) */
	memset(b, 0, sizeof(b));
	b[4] = 1;
	b[8] = 1;
	lhist_is(t, "lhist step 1", b, 12, 0, 10, 1,
		 "[3, 4)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[4, 5)                 0 |                                                    |\n"
		 "[5, 6)                 0 |                                                    |\n"
		 "[6, 7)                 0 |                                                    |\n"
		 "[7, 8)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(25, 50, 49; 5, 50, 10): 49 counts in [50, ...) */
	memset(b, 0, sizeof(b));
	b[3] = 1;
	b[5] = 2;
	lhist_is(t, "lhist uneven range", b, 6, 5, 50, 10,
		 "[25, 35)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[35, 45)               0 |                                                    |\n"
		 "[50, ...)              2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(0, 9, 10; 0, 10, 3) */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	b[4] = 2;
	lhist_is(t, "lhist step 3", b, 5, 0, 10, 3,
		 "[0, 3)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[3, 6)                 0 |                                                    |\n"
		 "[6, 9)                 0 |                                                    |\n"
		 "[10, ...)              2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(1500000 and 10, 0, 2097152, 1048576): M labels */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	b[2] = 1;
	lhist_is(t, "lhist M labels", b, 4, 0, 2097152, 1048576,
		 "[0, 1M)                1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[1M, 2M)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(0 and 4000, 0, 10000, 1536): 1536 is no multiple of 1024 */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	b[3] = 1;
	lhist_is(t, "lhist 1536 steps", b, 8, 0, 10000, 1536,
		 "[0, 1536)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[1536, 3K)             0 |                                                    |\n"
		 "[3K, 4608)             1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(-1 and 5000, 1024, 4096, 1024) */
	memset(b, 0, sizeof(b));
	b[0] = 1;
	b[4] = 1;
	lhist_is(t, "lhist min 1K", b, 5, 1024, 4096, 1024,
		 "(..., 1K)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[1K, 2K)               0 |                                                    |\n"
		 "[2K, 3K)               0 |                                                    |\n"
		 "[3K, 4K)               0 |                                                    |\n"
		 "[4K, ...)              1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(3145728, 0, 4194304, 1048576) */
	memset(b, 0, sizeof(b));
	b[4] = 1;
	lhist_is(t, "lhist 3M", b, 6, 0, 4194304, 1048576,
		 "[3M, 4M)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(10 and 1572864, 0, 3145728, 1572864): 1536K */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	b[2] = 1;
	lhist_is(t, "lhist 1536K", b, 4, 0, 3145728, 1572864,
		 "[0, 1536K)             1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[1536K, 3M)            1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(1024000, 1024000, 3072000, 1024000): 1000K */
	memset(b, 0, sizeof(b));
	b[1] = 1;
	lhist_is(t, "lhist 1000K", b, 4, 1024000, 3072000, 1024000,
		 "[1000K, 2000K)         1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* lhist(1073741824, 0, 2147483647, 1073741824) */
	memset(b, 0, sizeof(b));
	b[2] = 1;
	lhist_is(t, "lhist odd max", b, 3, 0, 2147483647, 1073741824,
		 "[2147483647, ...)       1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 );

	/* @l = lhist($i % 777, 0, 800, 50) for $i in 0..499 and 0..999 */
	memset(b, 0, sizeof(b));
	for (i = 0; i < 1000; i++) {
		b[1 + (i % 777) / 50]++;
		if (i == 499)
			lhist_is(t, "lhist big500", b, 18, 0, 800, 50,
				 "[0, 50)               50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[50, 100)             50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[100, 150)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[150, 200)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[200, 250)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[250, 300)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[300, 350)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[350, 400)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[400, 450)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 "[450, 500)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
				 );
	}
	lhist_is(t, "lhist big1000", b, 18, 0, 800, 50,
		 "[0, 50)              100 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[50, 100)            100 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[100, 150)           100 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[150, 200)           100 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[200, 250)            73 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@               |\n"
		 "[250, 300)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[300, 350)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[350, 400)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[400, 450)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[450, 500)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[500, 550)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[550, 600)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[600, 650)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[650, 700)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[700, 750)            50 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[750, 800)            27 |@@@@@@@@@@@@@@                                      |\n"
		 );

	/* counts set by hand in the BPF map */
	memset(b, 0, sizeof(b));
	b[1] = 2147483646;
	b[3] = 2147483647;
	b[6] = 1073741823;
	lhist_is(t, "lhist wide counts", b, 12, 0, 100, 10,
		 "[0, 10)         2147483646 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[10, 20)               0 |                                                    |\n"
		 "[20, 30)        2147483647 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[30, 40)               0 |                                                    |\n"
		 "[40, 50)               0 |                                                    |\n"
		 "[50, 60)        1073741823 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 );

	/* beyond bpftrace 0.17: 64-bit bounds, nothing for empty input */
	memset(b, 0, sizeof(b));
	lhist_is(t, "lhist all zero", b, 12, 0, 100, 10, "");
	b[0] = 1;
	lhist_is(t, "lhist nb < 2", b, 1, 0, 100, 10, "");
	memset(b, 0, sizeof(b));
	b[1] = 1;
	b[3] = 2;
	/* 2000000000 is 1953125 * 1024 */
	lhist_is(t, "lhist 64-bit bounds", b, 4, 0, 4000000000LL,
		 2000000000LL,
		 "[0, 1953125K)          1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@                          |\n"
		 "[1953125K, 3906250K)       0 |"
		 "                                                    |\n"
		 "[3906250K, ...)        2 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	memset(b, 0, sizeof(b));
	b[0] = 1;
	b[2] = 1;
	lhist_is(t, "lhist T labels", b, 4, 1LL << 40, 3LL << 40, 1LL << 40,
		 "(..., 1T)              1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n"
		 "[1T, 2T)               0 |"
		 "                                                    |\n"
		 "[2T, 3T)               1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	memset(b, 0, sizeof(b));
	b[2] = 1;
	lhist_is(t, "lhist P label", b, 3, 1LL << 50, 1LL << 51, 1LL << 50,
		 "[2P, ...)              1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	memset(b, 0, sizeof(b));
	b[1] = 1;
	lhist_is(t, "lhist negative bounds", b, 5, -2048, 1024, 1024,
		 "[-2K, -1K)             1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
	memset(b, 0, sizeof(b));
	b[2] = 1;
	lhist_is(t, "lhist E label", b, 4, 0, 1LL << 61, 1LL << 60,
		 "[1E, 2E)               1 |"
		 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n");
}

/* stats lines captured from bpftrace 0.17, and avg's value. */
static void test_stats(struct tally *t)
{
	/* stats(4), stats(9) */
	stats_is(t, "stats ex1", 2, 13, "count 2, average 6, total 13");
	/* stats(-7), stats(0): truncation toward zero */
	stats_is(t, "stats negative", 2, -7, "count 2, average -3, total -7");
	/* stats((uint64)-1) */
	stats_is(t, "stats -1", 1, -1, "count 1, average -1, total -1");
	stats_is(t, "stats -1 -1", 2, -2, "count 2, average -1, total -2");
	/* zero(@t) */
	stats_is(t, "stats zero", 0, 0, "count 0, average 0, total 0");
	/* the 1000 and 500 loops: stats($i * 3 - 1000) */
	stats_is(t, "stats big1000", 1000, 498500,
		 "count 1000, average 498, total 498500");
	stats_is(t, "stats big500", 500, -125750,
		 "count 500, average -251, total -125750");
	/* avg(-3), avg(0) -> -1; avg(7), avg(0) -> 3; avg(1<<63) */
	ok(t, "fmt_average -3/2", fmt_average(2, -3) == -1);
	ok(t, "fmt_average 7/2", fmt_average(2, 7) == 3);
	ok(t, "fmt_average 0/0", fmt_average(0, 0) == 0);
	ok(t, "fmt_average 5/0", fmt_average(0, 5) == 0);
	ok(t, "fmt_average INT64_MIN/1",
	   fmt_average(1, INT64_MIN) == INT64_MIN);
	ok(t, "fmt_average huge count", fmt_average(UINT64_MAX, -5) == 0);
}

/* fmt_time with a fixed zone. */
static void test_time(struct tally *t)
{
	char buf[128];
	size_t n;
	/* 2009-02-13 23:31:30.123456789 UTC */
	uint64_t ns = 1234567890123456789u;

	setenv("TZ", "UTC0", 1);
	tzset();
	n = fmt_time(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S.%f", ns);
	same(t, "time %f", buf, n, "2009-02-13 23:31:30.123456", 26);
	n = fmt_time(buf, sizeof(buf), "%H:%M:%S\n", 0);
	same(t, "time epoch", buf, n, "00:00:00\n", 9);
	n = fmt_time(buf, sizeof(buf), "%f|%f", 1000);
	same(t, "time %f%f pads", buf, n, "000001|000001", 13);
	n = fmt_time(buf, sizeof(buf), "%%f %%%f %%", ns);
	same(t, "time %%f", buf, n, "%f %123456 %", 12);
	n = fmt_time(buf, sizeof(buf), "%s", ns);
	same(t, "time %s", buf, n, "1234567890", 10);
	n = fmt_time(buf, sizeof(buf), "", ns);
	ok(t, "time empty format", n == 0 && buf[0] == 0);
	n = fmt_time(buf, 6, "%Y-%m-%d", ns);
	same(t, "time cut to cap-1", buf, n, "2009-", 5);
	n = fmt_time(buf, 1, "%Y", ns);
	ok(t, "time cap 1", n == 0 && buf[0] == 0);
	n = fmt_time(buf, 0, "%Y", ns);
	ok(t, "time cap 0", n == 0);

	setenv("TZ", "JST-9", 1);
	tzset();
	n = fmt_time(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S.%f %z", ns);
	same(t, "time local zone", buf, n,
	     "2009-02-14 08:31:30.123456 +0900", 32);
}

/* %r, %rx, %rh of buffers (bpftrace 0.17's output), ntop and macaddr. */
static void test_bytes(struct tally *t)
{
	static const char raw[] = "ab\t\x01\xff~ \x7f";
	struct fmt_arg b = sarg(raw, 8);
	uint8_t v4[24] = { 2 }, v6[24] = { 10 }, bad[24] = { 3 };
	uint8_t mac[6] = { 0x01, 0x02, 0xab, 0xcd, 0xef, 0x10 };
	char buf[64];

	b.is_buf = 1;
	print_s(t, "[%r]", &b, 1, "[ab\\x09\\x01\\xff~ \\x7f]");
	print_s(t, "[%rx]", &b, 1,
		"[\\x61\\x62\\x09\\x01\\xff\\x7e\\x20\\x7f]");
	print_s(t, "[%rh]", &b, 1, "[61 62 09 01 ff 7e 20 7f]");
	print_s(t, "[%rhz]", &b, 1, "[61 62 09 01 ff 7e 20 7fz]");
	print_s(t, "[%-12.5r]", &b, 1, "[ab\\x0       ]");
	b.slen = 0;
	print_s(t, "[%r]", &b, 1, "[]");
	b.slen = 3;
	b.s = "a\0b";
	print_s(t, "[%r]", &b, 1, "[a\\x00b]");
	parse_bad(t, "%lr", 0, "%r takes no length modifier");

	v4[8] = 127;
	v4[11] = 1;
	fmt_inet(buf, sizeof(buf), v4);
	same(t, "ntop v4", buf, strlen(buf), "127.0.0.1", 9);
	v6[23] = 1;
	fmt_inet(buf, sizeof(buf), v6);
	same(t, "ntop v6", buf, strlen(buf), "::1", 3);
	fmt_inet(buf, sizeof(buf), bad);
	ok(t, "ntop unknown family", buf[0] == 0);
	fmt_mac(buf, sizeof(buf), mac);
	same(t, "macaddr", buf, strlen(buf), "01:02:AB:CD:EF:10", 17);
}

int main(void)
{
	struct tally t = { 0, 0 };

	test_parse(&t);
	test_print(&t);
	test_hist(&t);
	test_hist_bits(&t);
	test_lhist(&t);
	test_stats(&t);
	test_time(&t);
	test_bytes(&t);
	printf("%d passed, %d failed\n", t.pass, t.fail);
	return t.fail ? 1 : 0;
}
