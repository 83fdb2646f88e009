/* format.c - printf formats, histogram and stats rendering, time formatting.
 *
 * bpftrace 0.17 map output rules
 * ==============================
 * Observed on this machine with bpftrace v0.17.0 (`bpftrace -e '...'`,
 * bytes checked with cat -A).  "\n" below is one newline byte and
 * spaces are literal.  This is the spec print.c follows.
 *
 * 1. Start and exit
 *    - At start: "Attaching 1 probe...\n" / "Attaching 2 probes...\n"
 *      (stdout; not printed with -q).
 *    - At exit (exit() or SIGINT): END probes run first and their output
 *      appears, then "\n\n" is printed ALWAYS (even with no maps at all),
 *      then every map, ordered by strcmp() of the name including '@':
 *      "@" < "@A" < "@B" < "@_x" < "@a" < "@a1" < "@b" < "@zz".
 *        BEGIN { printf("hi\n"); exit(); }
 *          -> "Attaching 1 probe...\nhi\n\n\n"
 *        BEGIN { @b = 2; @a = 1; exit(); } END { printf("end\n"); }
 *          -> "Attaching 2 probes...\nend\n\n\n@a: 1\n@b: 2\n"
 *
 * 2. Layout of one map, by kind ("entry" = one key of the map)
 *    - plain (assigned ints, strings, tuples, count, sum, min, max):
 *      one line per entry, "@x: 1\n" or "@x[1, foo]: 3\n"; nothing after
 *      the map.
 *    - avg: one line per entry with the average, "@m: 5\n", then one
 *      "\n" after the last entry of the map.
 *    - stats: "@s: count 2, average 6, total 13\n" per entry (see
 *      fmt_stats), then one "\n" after the map.
 *    - hist / lhist: per entry a header "@h: \n" (NB: a space after the
 *      colon) or "@h[1]: \n", then the bucket rows (fmt_hist/fmt_lhist),
 *      then "\n".
 *    - empty map (never written, all keys deleted, clear()ed): plain,
 *      hist and lhist maps print just "\n"; avg and stats maps "\n\n".
 *      A map whose only probe never fired is printed like that too.
 *        BEGIN { @z = 1; @a = 2; @m = avg(5); exit(); }
 *          -> "\n\n@a: 2\n@m: 5\n\n@z: 1\n"
 *        BEGIN { @h = hist(5); @c = count(); exit(); }
 *          -> "\n\n@c: 1\n@h: \n[4, 8)                 1 |@...@|\n\n"
 *        BEGIN { @b = 1; exit(); } interval:s:100 { @a = 1; @d = avg(1); }
 *          -> "\n\n\n@b: 1\n\n\n"
 *
 * 3. Keys and values
 *    - Key: "[" fields joined by ", " "]".  Strings raw: unquoted, no
 *      escaping, up to the NUL: @s["a\tb"] -> "@s[a<TAB>b]: ...", @e[""]
 *      -> "@e[]: 1".  Integer keys of 1, 2 and 4 bytes print per their
 *      signedness ((uint32)4294967295 -> 4294967295, (int16)-1 -> -1);
 *      8-byte keys print as SIGNED even when unsigned: @k[(uint64)-1] ->
 *      "@k[-1]: 1", @v[(uint8)200, (uint64)-1] -> "@v[200, -1]: 4".
 *    - Integer values print per their type: @g = (uint64)-1 ->
 *      18446744073709551615, @g = 0xffffffffffffffff (an int64 literal)
 *      -> -1, (uint32)4294967295 -> 4294967295, (int8)-1 -> -1.  sum,
 *      min, max and avg are signed 64-bit: sum(-5) -> -5,
 *      avg(0x8000000000000000) -> -9223372036854775808.
 *    - Strings raw (a "\n" inside is printed as a newline), tuples
 *      "(1, x)" with strings unquoted.
 *
 * 4. Order of the entries of one map
 *    - integer-valued maps (assign, count, sum, min, max, avg): ascending
 *      by value, compared by the value's type (int64 signed: -100 -5 0 3;
 *      uint64 unsigned: 5 before 18446744073709551615).
 *    - stats: ascending by average (signed).
 *    - hist / lhist: ascending by the sum of all bucket counts.
 *    - other values (strings, tuples): ascending by key; integer key
 *      fields compare as unsigned 64-bit (0 1 9 10 256 -1), strings
 *      bytewise (B a ab b), several fields lexicographically
 *      ([1, a] [1, b] [2, a] [300, a]).
 *    - ties keep BPF hash-iteration order, i.e. effectively random (ten
 *      keys with value 1 came out as 10 4 8 1 9 6 3 7 2 5).  Sonde: break
 *      ties by the key order above; tests must not rely on tie order.
 *
 * 5. print() at runtime
 *    - print(@m) prints the map exactly as at exit (same per-kind layout
 *      and blank lines, "\n" for an empty map, "\n\n" for an empty
 *      avg/stats map) but without the leading "\n\n".  Maps printed by
 *      print() are printed again at exit.
 *    - print(@m, top): only the last TOP entries of the order above (the
 *      TOP largest), still ascending.
 *    - print(@m, top, div): plain and avg values are divided (integer
 *      division: 5 3 9 with div 3 -> 1 1 3); hist rows print count/div
 *      but bars and trimming use the undivided counts (fmt_hist_div):
 *      one value in [4, 8) with div 2 -> "[4, 8)                 0 |"
 *      + 52 '@' + "|"; lhist ignores div; stats ignores top and div
 *      (compile-time "WARNING: print()'s top and div arguments are
 *      ignored when used on stats() maps.").
 *    - print(5) -> "5\n", print(-5) -> "-5\n", print("str") -> "str\n",
 *      print((1, "a", -2)) -> "(1, a, -2)\n".
 *
 * 6. clear / zero / delete
 *    - clear(@m) removes every entry: the map prints as empty ("\n", or
 *      "\n\n" for avg/stats).  Quirk: a keyless count() map keeps an
 *      entry: @x = count(); clear(@x) (or delete(@x)) -> "@x: 0\n".
 *    - zero(@m) keeps the keys with zero values: "@m: 0\n",
 *      "@n[1]: 0\n@n[2]: 0\n", avg -> "@w: 0\n\n", stats ->
 *      "@t: count 0, average 0, total 0\n\n", hist -> "@z: \n\n" (no rows).
 *    - delete(@m[k]) removes one entry.
 *
 * 7. Numeric quirks of bpftrace 0.17 (in-kernel code; whether sonde's
 *    codegen copies them is its own choice)
 *    - max() starts from 0: an entry appears only once a value >= 0 came:
 *      @e = max(-4) alone -> map empty -> "\n"; max(-1), max(0) -> 0.
 *    - min() drops values > 4294967295 (map stays empty) and shows
 *      min(4294967295) as 0; negative values work: min(-5000000000) ->
 *      -5000000000.
 *    - avg/stats: average = total / count, C division truncating toward
 *      zero (fmt_average): avg(-3), avg(0) -> -1; stats(-7), stats(0) ->
 *      "count 2, average -3, total -7"; count 0 -> average 0.
 *    - hist(): log2 saturates at 32 bits: every value >= 2^32 (1<<40,
 *      1<<62, 0x7fffffffffffffff) is counted in [2G, 4G); values < 0,
 *      including (uint64)-1 and 1<<63, in (..., 0).
 *    - lhist(v, min, max, step): min must be >= 0 ("lhist() min must be
 *      non-negative (provided min -50)"), min/max/step must be integer
 *      literals, at most 1000 buckets ("lhist() too many buckets, must be
 *      <= 1000 (would need 1024)").  Arguments >= 2^31 give garbage labels
 *      such as "[-288054K, ...)"; fmt_lhist renders int64 correctly.
 *    - bucket counts >= 2^31 are mishandled by bpftrace (rows vanish or
 *      it aborts); below that fmt_hist/fmt_lhist match byte for byte.
 *
 * 8. Bucket rows (fmt_hist, fmt_lhist)
 *    - Row: label left-justified in 16 columns, count right-justified in
 *      8 columns, " |", bar of '@' padded with spaces to 52, "|\n".
 *      Longer labels or counts push the rest right, nothing is cut:
 *        "[5000000, 6000000)       1 |@...@|"
 *        "[64, 128)       2147483647 |@...@|"
 *    - Bar length = (int)((float)count / (float)max_count * 52): single
 *      precision, so 1073741823 against 2147483647 gives 26, not 25.
 *    - Rows from the first non-zero bucket to the last non-zero one; zero
 *      rows in between are printed; no rows when every bucket is zero.
 *    - hist labels: "(..., 0)", "[0]", "[1]", then "[lo, hi)" where a
 *      power of two 2^(10q+r) is written (1<<r) followed by "", K, M, G,
 *      T, P, E for q = 0..6: [2, 4) ... [512, 1K) [1K, 2K) ... [512K, 1M)
 *      [1M, 2M) ... [1G, 2G) [2G, 4G).
 *    - lhist labels: "(..., MIN)", "[a, b)" per step, "[MAX, ...)".  A
 *      non-zero number that is a multiple of 1024 is divided by 1024 as
 *      long as it stays a whole number (at most 6 times) and gets K M G T
 *      P E: 2048 -> 2K, 3072 -> 3K, 1536 -> 1536, 1572864 -> 1536K,
 *      3145728 -> 3M, 1024000 -> 1000K, 5000000 -> 5000000, 0 -> 0; so
 *      "(..., 1K)" and "[4K, ...)" for lhist(x, 1024, 4096, 1024).
 *    - lhist has (max - min) / step regular buckets (integer division);
 *      the last may end before MAX and values from there on are counted
 *      in "[MAX, ...)": lhist(x, 0, 10, 3) -> [0, 3) [3, 6) [6, 9)
 *      [10, ...), where 9 is counted in [10, ...).
 *
 * 9. printf
 *    - bpftrace recognises only %[-][width][.prec][hh|h|l|ll|j|z|t]
 *      followed by d u x X o c s p (plus %r %rx %rh for buffers).  Any
 *      other '%' sequence ("%i", "%+d", "% d", "%#x", "%e", "%f", "%*d",
 *      a trailing "%", even "%%") is plain text to it, so "50% done"
 *      works.  sonde's fmt_parse is different on purpose: see there.
 *    - Integers follow C, INCLUDING length modifiers: "%d" "%u" "%x" "%o"
 *      are 32-bit: printf("%d %u %x", 5000000000, ...) -> "705032704
 *      705032704 2a05f200"; printf("%d", nsecs) prints a truncated, often
 *      negative number; "%ld" "%lld" "%zd" "%jd" "%td" are 64-bit; "%hd"
 *      16-bit (70000 -> 4464); "%hhd" 8-bit (300 -> 44).  Arguments are
 *      first widened to 64 bits by their type: signed types sign-extend
 *      ((int32)-1 with "%lu" -> 18446744073709551615), unsigned ones
 *      zero-extend ((uint32)4294967295 with "%ld" -> 4294967295).
 *    - "%c" is C's (0x141 -> "A"); "%c" of 0 prints nothing ("a%cb" ->
 *      "ab"), "%5c" of 0 prints 4 spaces.  "%p" is glibc's: 0 ->
 *      "(nil)", 65 -> "0x41", -1 -> "0xffffffffffffffff".  "%s" is C's:
 *      "%-8.3s" of "abcdef" -> "abc     ", "%.2s" of "xyz" -> "xy".
 *    - The format is cut into segments, each ending with a conversion;
 *      each is formatted with snprintf and written up to its first NUL;
 *      the text after the last conversion is written raw.  So "%%" is
 *      "%" before a conversion but stays "%%" after the last one or when
 *      there is no argument at all: printf("100%%\n") -> "100%%",
 *      printf("%d 100%%\n", 5) -> "5 100%%", printf("%d%%|%d\n", 5, 6)
 *      -> "5%|6".  A "\0" before a conversion cuts that segment and drops
 *      its conversion: printf("x\0y%d|%d\n", 1, 2) -> "x|2"; a "\0" in the
 *      last text is written as a NUL byte.
 *    - Escapes in string literals: \n \t \r \" \\, octal \N \NN \NNN
 *      ("\101" -> "A", "\1234" -> "S4", above \377 is "ERROR: octal
 *      escape sequence out of range '\777'"), hex \xH or \xHH ("\x41" ->
 *      "A", "\x414" -> "A4", "\x4g" -> byte 4 then "g"; "\x" alone is an
 *      error), "\0" is a NUL byte.  Any other escape (\e \a \v \f \' \?
 *      \q \8 ...) is "ERROR: invalid escape character '\e'".
 *    - Checked at compile time: "printf: Too many arguments for format
 *      string (1 supplied, 0 expected)", "printf: Not enough arguments for
 *      format string (0 supplied, 1 expected)", "printf: %s specifier
 *      expects a value of type string (integer supplied)".  String
 *      literals are at most 64 bytes ("String is too long (over 64
 *      bytes): ...").
 *
 * 10. time() and strftime()
 *    - time() prints the local time with the default "%H:%M:%S\n";
 *      time(fmt) uses strftime(3) and does NOT know %f (glibc leaves
 *      "%f" as is), so a caller of fmt_time for time() gets more than
 *      bpftrace prints when the format has %f.
 *    - strftime(fmt, ns) is a value printed with "%s"; ns is boot-relative
 *      (nsecs) and bpftrace adds the boot time.  "%f" becomes 6-digit
 *      microseconds: "%f%f" -> "058981058981", "%%%f" -> "%058987".  An
 *      empty result prints "(?)" plus "ERROR: strftime returned 0" on
 *      stderr (strftime("", ns), and wrongly strftime("%%f", ns));
 *      fmt_time returns "" and "%f" for those.
 */
#include "out/format.h"
#include "catalog/kconst.h"
#include "base/util.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
	BAR = 52,		/* width of a histogram bar */
};

/* Bytes of the C type a conversion's length modifier selects: 1 for hh,
 * 2 for h, 8 for l ll z j t, 4 for none.  Read from the format text,
 * where a modifier is what directly precedes the conversion char. */
static int lenmod(const char *fmt, const struct fmt_piece *p)
{
	const char *c = fmt + p->off + p->len - 1;

	/* As in C and bpftrace (0.17 and today's): a conversion without a
	 * length modifier takes an int, so printf("%d", nsecs) shows the
	 * low 32 bits; %ld, %lld, %zd, %jd, %td take all 64. */
	if (p->len < 3)
		return 4;
	switch (c[-1]) {
	case 'h':
		return p->len >= 4 && c[-2] == 'h' ? 1 : 2;
	case 'l':
	case 'z':
	case 'j':
	case 't':
		return 8;
	}
	return 4;
}

/* Write the printf spec of P into BUF (at least 48 bytes): flags, width,
 * precision PREC, the length modifier MOD ("", "h", "hh" or "ll") and
 * the conversion char CONV. */
static void mkspec(char *buf, const struct fmt_piece *p, int prec,
		   const char *mod, char conv)
{
	int n = sprintf(buf, "%%%s", p->flags);

	if (p->width >= 0)
		n += sprintf(buf + n, "%d", p->width);
	if (prec >= 0)
		n += sprintf(buf + n, ".%d", prec);
	sprintf(buf + n, "%s%c", mod, conv);
}

/* The printf specs below and the strftime pattern in fmt_time are
 * built at run time from a format fmt_parse validated, with argument
 * types picked to match, so -Wformat-nonliteral (in -Wformat=2) is
 * silenced for those two functions only. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void fmt_convert(FILE *f, const struct fmt_piece *p, const struct fmt_arg *a,
		 int size)
{
	static const char *const mods[] = { "", "hh", "h", "", "", "", "", "",
					    "ll" };
	char sp[48], small[256], *out = small;
	int n = 0, again;

	if (p->conv == 'r' || p->conv == 'g') {
		/* the bytes (or GFP flags) as text, then flags, width and
		 * precision as %s applies them */
		struct fmt_piece q = *p;
		struct fmt_arg t = { .is_str = 1 };
		char *txt = NULL;
		size_t tl = 0;
		FILE *m = open_memstream(&txt, &tl);

		if (!m)
			return;
		if (p->conv == 'g' && !a->is_str)
			fmt_gfp(m, (uint64_t)a->i);
		else if (a->is_str && a->is_buf && a->s)
			fmt_bytes(m, (const uint8_t *)a->s, a->slen, p->rmode);
		fclose(m);
		t.s = txt;
		t.slen = tl;
		q.conv = 's';
		fmt_convert(f, &q, &t, 4);
		free(txt);
		return;
	}

	do {
		size_t cap = out == small ? sizeof(small) : (size_t)n + 1;

		again = 0;
		if (p->conv == 's') {	/* an integer may have a text too */
			const char *s = a->s ? a->s : "";
			size_t sl = a->s ? strnlen(s, a->slen) : 0;

			if (p->prec >= 0 && (size_t)p->prec < sl)
				sl = (size_t)p->prec;
			mkspec(sp, p, (int)sl, "", 's');
			n = snprintf(out, cap, sp, s);
		} else if (a->is_str) {
			n = 0;
			out[0] = 0;
		} else if (p->conv == 'c') {
			mkspec(sp, p, -1, "", 'c');
			n = snprintf(out, cap, sp, (int)(unsigned char)a->i);
		} else if (p->conv == 'p') {
			mkspec(sp, p, p->prec, "", 'p');
			n = snprintf(out, cap, sp, (void *)(uintptr_t)a->i);
		} else if (size == 8) {
			mkspec(sp, p, p->prec, mods[size], p->conv);
			if (strchr("di", p->conv))
				n = snprintf(out, cap, sp, (long long)a->i);
			else
				n = snprintf(out, cap, sp,
					     (unsigned long long)a->i);
		} else {
			/* int-sized or smaller: C converts to short/char */
			uint32_t lo = (uint32_t)a->i;

			mkspec(sp, p, p->prec, mods[size], p->conv);
			if (strchr("di", p->conv))
				n = snprintf(out, cap, sp, (int)lo);
			else
				n = snprintf(out, cap, sp, (unsigned)lo);
		}
		if (n < 0)
			n = 0;
		if ((size_t)n >= cap && out == small) {
			out = malloc((size_t)n + 1);
			if (!out)
				return;
			again = 1;
		}
	} while (again);
	fputs(out, f);
	if (out != small)
		free(out);
}
#pragma GCC diagnostic pop

/* Print FMT like bpftrace 0.17's printf (see rule 9 above): pieces up to
 * the last conversion are formatted (a "%%" gives '%', a NUL in the text
 * hides the rest of its segment including the conversion), the text
 * after the last conversion is written raw.  Integers use C semantics
 * with the length modifier: without one "%d" prints the low 32 bits;
 * the caller passes signed values sign-extended to 64 bits in i, and
 * is_signed is not needed.  An int conversion given a string argument,
 * or a missing argument, prints nothing for that conversion; "%s" of an
 * integer prints "". */
int fmt_print(FILE *f, const char *fmt, size_t len,
	      const struct fmt_arg *args, int nargs)
{
	struct fmt_piece small[32], *p = small;
	size_t eoff;
	const char *emsg;
	int n, k, a = 0;

	n = fmt_parse(fmt, len, small, 32, &eoff, &emsg);
	if (n < 0)
		return -1;
	if (n > 32) {
		p = malloc((size_t)n * sizeof(*p));
		if (!p)
			return -1;
		fmt_parse(fmt, len, p, n, &eoff, &emsg);
	}
	/* Unlike bpftrace 0.17, "%%" is always one '%' (it leaves "%%" after
	 * the last conversion as two), and text is written as it is. */
	for (k = 0; k < n; k++) {
		const struct fmt_piece *q = &p[k];

		if (q->want != FMT_WANT_NONE) {
			if (a < nargs)
				fmt_convert(f, q, &args[a], lenmod(fmt, q));
			a++;
		} else if (q->conv == '%') {
			putc('%', f);
		} else {
			fwrite(fmt + q->off, 1, q->len, f);
		}
	}
	if (p != small)
		free(p);
	return 0;
}

void fmt_bytes(FILE *f, const uint8_t *p, size_t len, char mode)
{
	for (size_t i = 0; i < len; i++) {
		if (mode == 'h')
			fprintf(f, i ? " %02x" : "%02x", p[i]);
		else if (mode == 0 && p[i] >= 32 && p[i] <= 126)
			putc(p[i], f);
		else
			fprintf(f, "\\x%02x", p[i]);
	}
}

void fmt_inet(char *buf, size_t cap, const uint8_t *v)
{
	uint64_t af;

	memcpy(&af, v, 8);
	buf[0] = 0;
	if (af == AF_INET || af == AF_INET6)
		if (!inet_ntop((int)af, v + 8, buf, (socklen_t)cap))
			buf[0] = 0;
}

void fmt_mac(char *buf, size_t cap, const uint8_t *v)
{
	snprintf(buf, cap, "%02X:%02X:%02X:%02X:%02X:%02X", v[0], v[1], v[2],
		 v[3], v[4], v[5]);
}

/* Find the first and last non-zero buckets and the largest count;
 * 0 if all are zero. */
static int span(const uint64_t *b, int nb, int *lo, int *hi, uint64_t *top)
{
	int k;

	*lo = -1;
	*hi = -1;
	*top = 0;
	for (k = 0; k < nb; k++) {
		if (!b[k])
			continue;
		if (*lo < 0)
			*lo = k;
		*hi = k;
		if (b[k] > *top)
			*top = b[k];
	}
	return *lo >= 0;
}

/* Print one bucket row: label, count COUNT / DIV, and a bar scaled from
 * the undivided COUNT against TOP in single precision like bpftrace;
 * with COLOR (a terminal), the bar in cyan. */
static void row(FILE *f, const char *label, uint64_t count, uint64_t div,
		uint64_t top, bool color)
{
	float r = (float)count / (float)top;
	int k, bar;

	r = r * (float)BAR;
	bar = (int)r;
	if (bar > BAR)
		bar = BAR;
	if (bar < 0)
		bar = 0;
	fprintf(f, "%-16s%8" PRIu64 " |", label, count / (div ? div : 1));
	if (color && bar)
		fputs("\033[36m", f);
	for (k = 0; k < bar; k++)
		putc('@', f);
	if (color && bar)
		fputs("\033[0m", f);
	for (; k < BAR; k++)
		putc(' ', f);
	fputs("|\n", f);
}

/* Write 2^E as a hist label number: 1 .. 512, then 1K .. 512K, ..., up
 * to 16E for 2^64. */
static int pow2(char *buf, int e)
{
	return sprintf(buf, "%d%.1s", 1 << (e % 10), &"\0KMGTPE"[e / 10]);
}

/* Log2 histogram rows; see fmt_hist_div. */
void fmt_hist(FILE *f, const uint64_t *bucket, int nb)
{
	fmt_hist_div(f, bucket, nb, 1, false);
}

/* Log2 histogram rows with counts printed divided by DIV (print's third
 * argument); bars and trimming use the undivided counts like bpftrace. */
void fmt_hist_div(FILE *f, const uint64_t *bucket, int nb, uint64_t div,
		  bool color)
{
	fmt_hist_k(f, bucket, nb, div, color, 0);
}

/* The number V of a hist(x, k) label: VAL * 2^P with P's whole 1024s as
 * K, M, G, T, P, E (bpftrace's labels: 2^k buckets of [16, 32) with k 2
 * start at 16, 20, 24, 28); 16E for 2^64. */
static int hist_num(char *buf, int i, int k)
{
	int p = (i >> k) - 1;
	unsigned step = (1u << k) + ((unsigned)i & ((1u << k) - 1));

	return sprintf(buf, "%llu%.1s",
		       (unsigned long long)step << (p % 10),
		       &"\0KMGTPE"[p / 10]);
}

/* Rows of hist(x, k): "(..., 0)", one value each up to 2^(k+1) - 1,
 * then "[lo, hi)". */
static void hist_rows_k(FILE *f, const uint64_t *bucket, int lo, int hi,
			uint64_t div, uint64_t top, bool color, int k)
{
	char label[64];

	for (int i = lo; i <= hi; i++) {
		int n;

		if (i == 0) {
			strcpy(label, "(..., 0)");
		} else if (i <= 2 << k) {
			sprintf(label, "[%d]", i - 1);
		} else {
			n = sprintf(label, "[");
			n += hist_num(label + n, i - 1, k);
			n += sprintf(label + n, ", ");
			n += hist_num(label + n, i, k);
			strcpy(label + n, ")");
		}
		row(f, label, bucket[i], div, top, color);
	}
}

void fmt_hist_k(FILE *f, const uint64_t *bucket, int nb, uint64_t div,
		bool color, int bits)
{
	char label[48];
	uint64_t top;
	int lo, hi, k, n;

	if (bits) {
		if (nb > hist_nbuckets(bits))
			nb = hist_nbuckets(bits);
		if (span(bucket, nb, &lo, &hi, &top))
			hist_rows_k(f, bucket, lo, hi, div, top, color, bits);
		return;
	}
	if (nb > 66)
		nb = 66;
	if (!span(bucket, nb, &lo, &hi, &top))
		return;
	for (k = lo; k <= hi; k++) {
		if (k == 0) {
			strcpy(label, "(..., 0)");
		} else if (k <= 2) {
			sprintf(label, "[%d]", k - 1);
		} else {
			label[0] = '[';
			n = 1 + pow2(label + 1, k - 2);
			n += sprintf(label + n, ", ");
			n += pow2(label + n, k - 1);
			strcpy(label + n, ")");
		}
		row(f, label, bucket[k], div, top, color);
	}
}

/* Write V as an lhist label number: multiples of 1024 get K M G T P E. */
static int num(char *buf, int64_t v)
{
	int q = 0;

	while (v != 0 && v % 1024 == 0 && q < 6) {
		v /= 1024;
		q++;
	}
	return sprintf(buf, "%" PRId64 "%.1s", v, &"\0KMGTPE"[q]);
}

/* Linear histogram rows.  Bucket bounds are computed in 64 bits, so
 * arguments beyond 32 bits print sensibly (bpftrace 0.17 garbles them). */
void fmt_lhist(FILE *f, const uint64_t *bucket, int nb,
	       int64_t min, int64_t max, int64_t step, bool color)
{
	char label[96];
	uint64_t top;
	int lo, hi, k, n;

	if (nb < 2 || !span(bucket, nb, &lo, &hi, &top))
		return;
	for (k = lo; k <= hi; k++) {
		if (k == 0) {
			n = sprintf(label, "(..., ");
			n += num(label + n, min);
			strcpy(label + n, ")");
		} else if (k == nb - 1) {
			n = sprintf(label, "[");
			n += num(label + n, max);
			strcpy(label + n, ", ...)");
		} else {
			n = sprintf(label, "[");
			n += num(label + n, min + (int64_t)(k - 1) * step);
			n += sprintf(label + n, ", ");
			n += num(label + n, min + (int64_t)k * step);
			strcpy(label + n, ")");
		}
		row(f, label, bucket[k], 1, top, color);
	}
}

/* avg()'s value: TOTAL / COUNT truncated toward zero, 0 for no values. */
int64_t fmt_average(uint64_t count, int64_t total)
{
	if (count == 0)
		return 0;
	if (count > (uint64_t)INT64_MAX)
		return total == INT64_MIN && count == (uint64_t)INT64_MAX + 1
		       ? -1 : 0;
	return total / (int64_t)count;
}

/* stats() value as bpftrace prints it after "@s: ". */
void fmt_stats(FILE *f, uint64_t count, int64_t total)
{
	fprintf(f, "count %" PRIu64 ", average %" PRId64 ", total %" PRId64,
		count, fmt_average(count, total), total);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* strftime(3) of EPOCH_NS in local time, with "%f" (not "%%f") replaced
 * by the 6-digit microseconds first.  A result longer than CAP-1 bytes
 * is cut to CAP-1 bytes; an empty result gives "". */
size_t fmt_time(char *buf, size_t cap, const char *fmt, uint64_t epoch_ns)
{
	time_t sec = (time_t)(epoch_ns / 1000000000u);
	unsigned usec = (unsigned)(epoch_ns % 1000000000u / 1000u);
	size_t flen = strlen(fmt), i, o = 0, got, big;
	char *pat, *tmp;
	struct tm tm;

	if (cap == 0)
		return 0;
	buf[0] = 0;
	if (!localtime_r(&sec, &tm))
		return 0;
	pat = malloc(flen * 3 + 1);
	if (!pat)
		return 0;
	for (i = 0; i < flen; i++) {
		if (fmt[i] == '%' && i + 1 < flen && fmt[i + 1] == 'f') {
			o += (size_t)sprintf(pat + o, "%06u", usec);
			i++;
		} else if (fmt[i] == '%' && i + 1 < flen) {
			pat[o++] = fmt[i++];
			pat[o++] = fmt[i];
		} else {
			pat[o++] = fmt[i];
		}
	}
	pat[o] = 0;
	got = strftime(buf, cap, pat, &tm);
	/* 0 means empty or too long: retry bigger and cut */
	for (big = 256; !got && o && big <= 65536; big *= 4) {
		tmp = malloc(big);
		if (!tmp)
			break;
		got = strftime(tmp, big, pat, &tm);
		if (got) {
			if (got >= cap)
				got = cap - 1;
			memcpy(buf, tmp, got);
			buf[got] = 0;
		}
		free(tmp);
	}
	free(pat);
	if (!got)
		buf[0] = 0;
	return got;
}
#pragma GCC diagnostic pop

const char *pr_errname(const struct type *t, int64_t v, char *buf,
		       size_t cap)
{
	if (t->nelem == STRERROR_SIGNAL)
		return v >= 0 && v <= 64 ? strsignal((int)v) : "N/A";
	if (t->nelem == STRERROR_SYSCALL)
		return kconst_name("__NR_", v, buf, cap) ? buf : "";
	return strerror((int)v);	/* bpftrace's int */
}
