/* forms.S - one usdt probe per family of operand forms, its stapsdt
 * notes written by hand so that every form the format allows appears
 * (compilers pick only some): registers of each width, constants,
 * off(%base), (%base), off(%base,%index,scale), sym(%rip), sym+N(%rip)
 * and $sym, and some it cannot read.  The registers and memory named
 * hold known values at each probe; tests/run/usdt_forms.sh checks what
 * sonde reads, usdt_errors.sh what it refuses. */

/* A NOP and its note (owner "stapsdt", type 3: pc, base, semaphore,
 * then provider, name and operands). */
#define PROBE(name, args)						\
990:	nop;								\
	.pushsection .note.stapsdt, "", "note";				\
	.balign 4;							\
	.4byte 992f - 991f, 994f - 993f, 3;				\
991:	.asciz "stapsdt";						\
992:	.balign 4;							\
993:	.8byte 990b, _.stapsdt.base, 0;					\
	.asciz "forms", name, args;					\
994:	.balign 4;							\
	.popsection

	.pushsection .stapsdt.base, "aG", "progbits", .stapsdt.base, comdat
	.weak _.stapsdt.base
	.hidden _.stapsdt.base
_.stapsdt.base:
	.space 1
	.size _.stapsdt.base, 1
	.popsection

	.data
	.balign 8
counter:
	.long -77
	.long 99
greeting:
	.asciz "hello from asm"

	.text
	.globl forms
	.type forms, @function
forms:
	push %rbp
	push %rbx
	push %r12
	sub $64, %rsp
	mov %rsp, %rbp
	/* make the data page present: BPF cannot fault it in */
	addl $0, counter(%rip)

	movabs $0x1122334455667788, %rax
	mov $0x12345678, %ebx
	mov $-5, %edi
	mov $0xffff, %esi
	movabs $0xfffffffe00000007, %r12
	PROBE("regs", "-4@%edi 8@%rax 1@%al -1@%al -1@%ah 2@%bx -1@%bh -2@%si 4@%r12d %rdi")

	PROBE("consts", "4@$5 -4@$-5 1@$-56 -8@$1234567890123 8@$0x10 -2@$40000")

	movabs $-1000000000000, %r11
	mov %r11, 16(%rbp)
	movabs $0x0102030405060708, %r11
	mov %r11, (%rsp)
	mov $10, %eax
	movl $4000000000, 28(%rbp)
	mov $5, %ecx
	movw $-300, 40(%rbp)
	PROBE("mem", "-8@16(%rbp) 8@(%rsp) 4@-12(%rbp,%rax,4) -4@counter(%rip) -4@counter+4(%rip) -2@(%rbp,%rcx,8)")

	PROBE("sym", "8@$greeting 8@$greeting+6")

	/* operands sonde cannot read: only using them is an error */
	PROBE("bad", "8@%xmm0 -4@%edi 3@%rax 8@nosuch(%rip)")

	add $64, %rsp
	pop %r12
	pop %rbx
	pop %rbp
	ret
	.size forms, . - forms

	.section .note.GNU-stack, "", @progbits
