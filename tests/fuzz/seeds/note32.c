/* note32.c - seed of the ELF fuzz target (tests/fuzz/make-seeds.sh):
 * a 32-bit program with one stapsdt note written by hand (sonde/sdt.h
 * is for x86-64 only), with 4-byte addresses. */
int value;

int probe32(int a)
{
	__asm__ volatile("990: nop\n"
		".pushsection .note.stapsdt,\"\",@note\n"
		".balign 4\n"
		".4byte 992f-991f, 994f-993f, 3\n"
		"991: .asciz \"stapsdt\"\n"
		"992: .balign 4\n"
		"993: .4byte 990b, 0, 0\n"
		".asciz \"p32\"\n"
		".asciz \"n32\"\n"
		".asciz \"-4@%0 4@$3 -4@value\"\n"
		"994: .balign 4\n"
		".popsection" :: "r"(a));
	return a + value;
}

void _start(void)
{
	probe32(1);
	for (;;)
		;
}
