/* stacks.c - known user call stacks, for the flame graph tests.
 *
 * usage: stacks [wait] L R
 *   main -> outer -> left  -> leaf   L times
 *   main -> outer -> right -> leaf   R times
 * leaf makes one getppid system call itself (inline syscall, not
 * libc's wrapper), so at tracepoint:syscalls:sys_enter_getppid the user
 * stack's innermost frame is leaf, whose frame is set up: libc's
 * wrapper builds no frame and would hide its caller.  Built with frame
 * pointers (the Makefile), which the kernel walks; leaf calls tally()
 * first because gcc builds no frame in a function that calls nothing.
 * Nothing else calls getppid.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wait.h"

static volatile long ncalls;

__attribute__((noinline)) static void tally(void)
{
	ncalls++;
}

__attribute__((noinline)) static long leaf(void)
{
	long r;

	tally();

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(r) : "a"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_getppid;
	register long x0 __asm__("x0");

	__asm__ volatile("svc #0" : "=r"(x0) : "r"(x8) : "memory");
	r = x0;
#else
	r = syscall(SYS_getppid);
#endif
	return r;
}

/* The additions keep each call from being a tail call, which would
 * drop the caller's frame. */
__attribute__((noinline)) static long left(void)
{
	return leaf() + 1;
}

__attribute__((noinline)) static long right(void)
{
	return leaf() + 2;
}

__attribute__((noinline)) static long outer(int which)
{
	return (which ? right() : left()) + 3;
}

int main(int argc, char **argv)
{
	int i = 1;
	long l, r, s = 0;

	wait_maybe(argc, argv, &i);
	if (argc - i != 2) {
		fputs("usage: stacks [wait] L R\n", stderr);
		return 2;
	}
	l = num_arg(argv[i]);
	r = num_arg(argv[i + 1]);
	for (long k = 0; k < l; k++)
		s += outer(0);
	for (long k = 0; k < r; k++)
		s += outer(1);
	return s == 1;
}
