/* insn.c - instruction lengths, for uprobes at FUNC+OFFSET.  arm64's
 * instructions are 4 bytes.  x86-64's are 1 to 15: prefixes, an opcode
 * in one of the maps (one byte, 0F, 0F 38, 0F 3A, or those of a VEX,
 * EVEX or XOP prefix), a ModRM byte with its SIB byte and displacement, and an
 * immediate; the tables below say which opcodes take a ModRM byte and
 * how large an immediate, as the Intel and AMD manuals define them. */
#include "catalog/insn.h"

#include <stdbool.h>

#define MAX_INSN 15

#if defined(__aarch64__)

int insn_length(const uint8_t *p, size_t n)
{
	(void)p;
	return n >= 4 ? 4 : -1;
}

#else

/* What follows an opcode. */
struct shape {
	bool modrm;
	int imm;	/* bytes of immediate (and of a relative target) */
};

/* The operand sizes prefixes and REX.W choose. */
struct mode {
	bool opsize16;	/* 66 */
	bool addr32;	/* 67 */
	bool rep;	/* F2 or F3 */
	bool rexw;
};

static bool in(uint8_t b, uint8_t lo, uint8_t hi)
{
	return b >= lo && b <= hi;
}

/* The one-byte map; false for opcodes 64-bit mode does not have. */
static bool one_byte(uint8_t b, uint8_t reg, const struct mode *m,
		     struct shape *s)
{
	static const uint8_t invalid[] = {
		0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37,
		0x3f, 0x60, 0x61, 0x82, 0x9a, 0xce, 0xd4, 0xd5, 0xd6, 0xea,
	};
	int z = m->opsize16 && !m->rexw ? 2 : 4;

	for (unsigned i = 0; i < sizeof(invalid); i++)
		if (b == invalid[i])
			return false;
	s->modrm = false;
	s->imm = 0;
	if (b < 0x40) {		/* ALU ops: r/m forms, then AL/eAX, imm */
		s->modrm = (b & 7) < 4;
		s->imm = (b & 7) == 4 ? 1 : (b & 7) == 5 ? z : 0;
		return true;
	}
	if (in(b, 0x80, 0x8f) || in(b, 0xd0, 0xd3) || in(b, 0xd8, 0xdf) ||
	    b == 0x63 || b == 0x69 || b == 0x6b || b == 0xc0 || b == 0xc1 ||
	    b == 0xc6 || b == 0xc7 || b == 0xf6 || b == 0xf7 || b == 0xfe ||
	    b == 0xff)
		s->modrm = true;
	if (b == 0x8f && reg != 0)	/* XOP, AMD only */
		return false;
	if (b == 0x6a || b == 0x6b || in(b, 0x70, 0x7f) || b == 0x80 ||
	    b == 0x83 || b == 0xa8 || in(b, 0xb0, 0xb7) || b == 0xc0 ||
	    b == 0xc1 || b == 0xc6 || b == 0xcd || in(b, 0xe0, 0xe7) ||
	    b == 0xeb || (b == 0xf6 && reg < 2))
		s->imm = 1;
	else if (b == 0x68 || b == 0x69 || b == 0x81 || b == 0xa9 ||
		 b == 0xc7 || (b == 0xf7 && reg < 2))
		s->imm = z;
	else if (b == 0xe8 || b == 0xe9)	/* rel32 in 64-bit mode */
		s->imm = 4;
	else if (in(b, 0xa0, 0xa3))		/* moffs */
		s->imm = m->addr32 ? 4 : 8;
	else if (in(b, 0xb8, 0xbf))
		s->imm = m->rexw ? 8 : z;
	else if (b == 0xc2 || b == 0xca)
		s->imm = 2;
	else if (b == 0xc8)
		s->imm = 3;
	return true;
}

/* The 0F map (also VEX and EVEX map 1). */
static bool two_byte(uint8_t b, const struct mode *m, struct shape *s)
{
	static const uint8_t invalid[] = {
		0x04, 0x0a, 0x0c, 0x24, 0x25, 0x26, 0x27, 0x36, 0x39, 0x3b,
		0x3c, 0x3d, 0x3e, 0x3f, 0x7a, 0x7b, 0xa6, 0xa7,
	};

	for (unsigned i = 0; i < sizeof(invalid); i++)
		if (b == invalid[i])
			return false;
	s->modrm = !(in(b, 0x05, 0x09) || b == 0x0b || b == 0x0e ||
		     in(b, 0x30, 0x37) || b == 0x77 || in(b, 0x80, 0x8f) ||
		     in(b, 0xa0, 0xa2) || in(b, 0xa8, 0xaa) ||
		     in(b, 0xc8, 0xcf));
	s->imm = 0;
	if (in(b, 0x70, 0x73) || b == 0xa4 || b == 0xac || b == 0xba ||
	    b == 0xc2 || b == 0xc4 || b == 0xc5 || b == 0xc6 || b == 0x0f)
		s->imm = 1;		/* 0F 0F: 3DNow!'s suffix byte */
	else if (in(b, 0x80, 0x8f))
		s->imm = 4;
	else if (b == 0x78 && (m->opsize16 || m->rep))
		s->imm = 2;		/* SSE4a extrq/insertq */
	return true;
}

/* The bytes of a ModRM operand at P: ModRM, SIB, displacement. */
static int modrm_length(const uint8_t *p, size_t n)
{
	int mod, rm, len = 1;

	if (n < 1)
		return -1;
	mod = p[0] >> 6;
	rm = p[0] & 7;
	if (mod != 3 && rm == 4) {
		if (n < 2)
			return -1;
		len = 2;
		if (mod == 0 && (p[1] & 7) == 5)
			len += 4;
	} else if (mod == 0 && rm == 5) {
		len += 4;		/* RIP-relative */
	}
	if (mod == 1)
		len += 1;
	else if (mod == 2)
		len += 4;
	return len;
}

/* The opcode at P[I] of MAP (1: 0F, 2: 0F 38, 3: 0F 3A, 5 and 6:
 * EVEX's, 8 to 10: XOP's), its operands; the whole length, or -1. */
static int finish(const uint8_t *p, size_t n, size_t i, int map,
		  const struct mode *m, bool vex)
{
	struct shape s = { true, 0 };
	int len;

	if (i >= n || (vex && map == 0))
		return -1;
	switch (map) {
	case 0:
		if (!one_byte(p[i], i + 1 < n ? (p[i + 1] >> 3) & 7 : 0, m, &s))
			return -1;
		break;
	case 1:
		if (!two_byte(p[i], m, &s))
			return -1;
		if (vex) {	/* VEX's map 1 has ModRM but for vzero* */
			s.modrm = p[i] != 0x77;
			s.imm = in(p[i], 0x70, 0x73) || p[i] == 0xc2 ||
				p[i] == 0xc4 || p[i] == 0xc5 || p[i] == 0xc6;
		}
		break;
	case 2: case 5: case 6: case 9:	/* 9: XOP's */
		break;
	case 3: case 8:
		s.imm = 1;
		break;
	case 10:			/* XOP's map 0Ah: imm32 */
		s.imm = 4;
		break;
	default:
		return -1;
	}
	i++;
	if (s.modrm) {
		len = modrm_length(p + i, n - i);
		if (len < 0)
			return -1;
		i += (size_t)len;
	}
	i += (size_t)s.imm;
	return i <= n && i <= MAX_INSN ? (int)i : -1;
}

int insn_length(const uint8_t *p, size_t n)
{
	struct mode m = { false, false, false, false };
	size_t i = 0;

	if (n > MAX_INSN)
		n = MAX_INSN;
	for (; i < n; i++) {	/* prefixes, any order */
		uint8_t b = p[i];

		if ((b & 0xf0) == 0x40) {
			m.rexw = b & 8;	/* if it is last, before the opcode */
			continue;
		}
		if (b != 0x66 && b != 0x67 && b != 0xf2 && b != 0xf3 &&
		    b != 0xf0 && b != 0x2e && b != 0x36 && b != 0x3e &&
		    b != 0x26 && b != 0x64 && b != 0x65)
			break;
		m.rexw = false;	/* a REX before a legacy prefix is ignored */
		m.opsize16 |= b == 0x66;
		m.addr32 |= b == 0x67;
		m.rep |= b == 0xf2 || b == 0xf3;
	}
	if (i >= n)
		return -1;
	switch (p[i]) {
	case 0xc5:			/* two-byte VEX: map 1 */
		return finish(p, n, i + 2, 1, &m, true);
	case 0xc4:			/* three-byte VEX */
		if (i + 1 >= n)
			return -1;
		return finish(p, n, i + 3, p[i + 1] & 0x1f, &m, true);
	case 0x62:			/* EVEX */
		if (i + 1 >= n)
			return -1;
		return finish(p, n, i + 4, p[i + 1] & 7, &m, true);
	case 0x8f:			/* POP r/m, or AMD's XOP */
		if (i + 1 < n && (p[i + 1] & 0x1f) >= 8)
			return finish(p, n, i + 3, p[i + 1] & 0x1f, &m, true);
		return finish(p, n, i, 0, &m, false);
	case 0x0f:
		if (i + 1 >= n)
			return -1;
		if (p[i + 1] == 0x38)
			return finish(p, n, i + 2, 2, &m, false);
		if (p[i + 1] == 0x3a)
			return finish(p, n, i + 2, 3, &m, false);
		return finish(p, n, i + 1, 1, &m, false);
	default:
		return finish(p, n, i, 0, &m, false);
	}
}

#endif

int insn_boundary(const uint8_t *p, size_t n, uint64_t off)
{
	uint64_t at = 0;

	while (at < off) {
		int len = insn_length(p + at, n - at);

		if (len <= 0)
			return -1;
		at += (uint64_t)len;
		if (at > n)
			return -1;
	}
	return at == off;
}
