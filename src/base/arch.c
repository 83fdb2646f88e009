/* arch.c - x86_64 struct pt_regs offsets. */
#include "base/arch.h"

#include <string.h>

#include "base/util.h"

static const struct {
	const char *names[5];	/* 64, 32, 16, 8-bit spellings */
	int off;
} regs[] = {
	{ { "r15", "r15d", "r15w", "r15b" }, 0 },
	{ { "r14", "r14d", "r14w", "r14b" }, 8 },
	{ { "r13", "r13d", "r13w", "r13b" }, 16 },
	{ { "r12", "r12d", "r12w", "r12b" }, 24 },
	{ { "rbp", "ebp", "bp", "bpl" }, 32 },
	{ { "rbx", "ebx", "bx", "bl", "bh" }, 40 },
	{ { "r11", "r11d", "r11w", "r11b" }, 48 },
	{ { "r10", "r10d", "r10w", "r10b" }, 56 },
	{ { "r9", "r9d", "r9w", "r9b" }, 64 },
	{ { "r8", "r8d", "r8w", "r8b" }, 72 },
	{ { "rax", "eax", "ax", "al", "ah" }, 80 },
	{ { "rcx", "ecx", "cx", "cl", "ch" }, 88 },
	{ { "rdx", "edx", "dx", "dl", "dh" }, 96 },
	{ { "rsi", "esi", "si", "sil" }, 104 },
	{ { "rdi", "edi", "di", "dil" }, 112 },
	{ { "orig_rax", "orig_ax" }, 120 },
	{ { "rip", "ip" }, 128 },
	{ { "cs" }, 136 },
	{ { "eflags", "flags" }, 144 },
	{ { "rsp", "esp", "sp", "spl" }, 152 },
	{ { "ss" }, 160 },
};

int pt_regs_offset(const char *name)
{
	if (*name == '%')
		name++;
	for (size_t i = 0; i < ARRAY_SIZE(regs); i++)
		for (int k = 0; k < 5 && regs[i].names[k]; k++)
			if (!strcmp(regs[i].names[k], name))
				return regs[i].off;
	return -1;
}

int pt_regs_arg(int n)
{
	static const int args[] = { 112, 104, 96, 88, 72, 64 };

	return n >= 0 && n < 6 ? args[n] : -1;
}

int pt_regs_dwarf(int regno)
{
	static const int offs[] = {
		80, 96, 88, 40, 104, 112, 32, 152,	/* rax .. rsp */
		72, 64, 56, 48, 24, 16, 8, 0,		/* r8 .. r15 */
	};

	return regno >= 0 && regno < (int)ARRAY_SIZE(offs) ? offs[regno] : -1;
}
