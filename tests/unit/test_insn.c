/* test_insn.c - unit tests for src/catalog/insn.c: instruction lengths
 * of hand-picked x86-64 encodings (prefixes, REX, the maps, ModRM with
 * SIB and displacements, immediates of every size, VEX and EVEX), and
 * of every instruction objdump(1) decodes in the executables and
 * libraries this machine has, where objdump is installed.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "catalog/insn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

#if defined(__x86_64__)

/* HEX (bytes as "48 8b 05 ...") is one instruction of LEN bytes, or
 * LEN is -1 for bytes that must not decode. */
static void one(const char *hex, int len)
{
	uint8_t b[32];
	size_t n = 0;
	char what[160];
	int got;

	for (const char *p = hex; *p && n < sizeof(b); p += 2) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		b[n++] = (uint8_t)strtoul((char[]){ p[0], p[1], 0 }, NULL, 16);
	}
	got = insn_length(b, n);
	snprintf(what, sizeof(what), "insn_length(%s) = %d, want %d", hex,
		 got, len);
	check(got == len, what);
}

static void encodings(void)
{
	one("55", 1);				/* push %rbp */
	one("41 57", 2);			/* push %r15 */
	one("48 89 e5", 3);			/* mov %rsp,%rbp */
	one("48 83 ec 20", 4);			/* sub $0x20,%rsp */
	one("48 81 ec 00 01 00 00", 7);		/* sub $0x100,%rsp */
	one("48 8b 05 10 20 30 40", 7);		/* mov rip+disp32,%rax */
	one("8b 44 24 08", 4);			/* mov 8(%rsp),%eax: SIB disp8 */
	one("8b 04 25 00 10 00 00", 7);		/* SIB, no base: disp32 */
	one("8b 84 24 00 01 00 00", 7);		/* SIB disp32 */
	one("48 b8 01 02 03 04 05 06 07 08", 10); /* movabs imm64 */
	one("b8 01 00 00 00", 5);		/* mov $1,%eax */
	one("66 b8 01 00", 4);			/* mov $1,%ax */
	one("66 48 b8 01 02 03 04 05 06 07 08", 11); /* REX.W beats 66 */
	one("e8 00 00 00 00", 5);		/* call rel32 */
	one("eb fe", 2);			/* jmp rel8 */
	one("0f 84 00 01 00 00", 6);		/* je rel32 */
	one("c3", 1);
	one("c2 08 00", 3);			/* ret $8 */
	one("c8 10 00 01", 4);			/* enter */
	one("f3 0f 1e fa", 4);			/* endbr64 */
	one("66 0f 1f 44 00 00", 6);		/* nopw 0(%rax,%rax) */
	one("66 2e 0f 1f 84 00 00 00 00 00", 10); /* nopw %cs:0(...) */
	one("f6 c1 01", 3);			/* test $1,%cl */
	one("f6 d1", 2);			/* not %cl: no immediate */
	one("f7 c1 01 00 00 00", 6);		/* test $1,%ecx */
	one("66 f7 c1 01 00", 5);		/* test $1,%cx */
	one("0f af c1", 3);			/* imul %ecx,%eax */
	one("69 c1 10 00 00 00", 6);		/* imul $16,%ecx,%eax */
	one("0f ba e0 03", 4);			/* bt $3,%eax */
	one("66 0f 3a 0f c1 08", 6);		/* palignr $8 */
	one("66 0f 38 00 c1", 5);		/* pshufb */
	one("66 0f 70 c1 1b", 5);		/* pshufd $0x1b */
	one("0f 05", 2);			/* syscall */
	one("f0 48 0f b1 0a", 5);		/* lock cmpxchg */
	one("a1 00 00 00 00 00 00 00 00", 9);	/* mov moffs64,%eax */
	one("c5 f8 77", 3);			/* vzeroupper */
	one("c5 fd 6f 06", 4);			/* vmovdqa (%rsi),%ymm0 */
	one("c4 e3 7d 39 c1 01", 6);		/* vextracti128 $1 */
	one("c4 e2 7d 58 c0", 5);		/* vpbroadcastd */
	one("62 f1 7c 48 10 06", 6);		/* vmovups (%rsi),%zmm0 */
	one("62 f1 7c 48 10 46 01", 7);		/* ... disp8*N */
	one("62 f3 7d 48 3b c1 01", 7);		/* vextracti32x8 $1 */
	one("d9 ee", 2);			/* fldz */
	one("dd 44 24 08", 4);			/* fldl 8(%rsp) */
	one("06", -1);				/* push %es: not in 64-bit */
	one("0f 0b", 2);			/* ud2 */
	one("48", -1);				/* a prefix, cut off */
	one("48 66 90", 3);			/* REX before 66: ignored */
	one("66 48 0f 7e c0", 5);		/* movq %xmm0,%rax */
	one("e8 00 00", -1);			/* cut off */
	check(insn_boundary((const uint8_t *)"\x55\x48\x89\xe5\xc3", 5, 1) == 1,
	      "boundary after push");
	check(insn_boundary((const uint8_t *)"\x55\x48\x89\xe5\xc3", 5, 2) == 0,
	      "inside mov");
	check(insn_boundary((const uint8_t *)"\x55\x48\x89\xe5\xc3", 5, 4) == 1,
	      "boundary at ret");
}

/* Every instruction objdump decodes in FILE has the length it shows
 * (its bytes on the line, with -w); "(bad)" and data lines skipped. */
static void against_objdump(const char *file)
{
	char cmd[512], line[1024], what[1200];
	unsigned long total = 0, wrong = 0;
	FILE *f;

	if (access(file, R_OK))
		return;
	snprintf(cmd, sizeof(cmd),
		 "objdump -d -w --no-addresses --section=.text %s 2>/dev/null",
		 file);
	f = popen(cmd, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		uint8_t b[32];
		size_t n = 0;
		char *p = line, *tab;

		if (line[0] != '\t' || strstr(line, "(bad)") ||
		    !(tab = strchr(line + 1, '\t')))
			continue;
		*tab = 0;
		while (*++p && n < sizeof(b)) {
			char *end;
			unsigned long v = strtoul(p, &end, 16);

			if (end == p)
				break;
			b[n++] = (uint8_t)v;
			p = end;
		}
		/* a REX before a prefix, which the CPU ignores: objdump
		 * shows it alone */
		if (!n || !tab[1] || !strncmp(tab + 1, "data", 4) ||
		    !strncmp(tab + 1, "rex", 3))
			continue;
		total++;
		/* objdump shows WAIT and the x87 instruction after it as
		 * one (fstsw): two instructions */
		if (b[0] == 0x9b && n > 1 &&
		    insn_length(b + 1, n - 1) == (int)n - 1)
			continue;
		if (insn_length(b, n) != (int)n && wrong++ < 5) {
			snprintf(what, sizeof(what), "%s: %zu bytes %s: got %d",
				 file, n, line + 1, insn_length(b, n));
			check(0, what);
		}
	}
	pclose(f);
	snprintf(what, sizeof(what), "%s: %lu of %lu instructions wrong",
		 file, wrong, total);
	check(total > 1000 && wrong == 0, what);
}

#endif

int main(void)
{
#if defined(__x86_64__)
	encodings();
	if (!system("objdump --version > /dev/null 2>&1")) {
		against_objdump("/usr/bin/bash");
		against_objdump("/lib/x86_64-linux-gnu/libc.so.6");
		against_objdump("/lib/x86_64-linux-gnu/libm.so.6");
		against_objdump("/lib/x86_64-linux-gnu/libstdc++.so.6");
		against_objdump("/usr/bin/python3");
	}
#else
	uint8_t w[8] = { 0 };

	check(insn_length(w, 8) == 4, "arm64: 4 bytes");
	check(insn_boundary(w, 8, 6) == 0, "arm64: 6 is inside");
#endif
	return check_summary();
}
