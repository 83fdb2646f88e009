/* deepstack.c - a deep call chain built without frame pointers (the
 * Makefile: -O2 -fomit-frame-pointer), for the DWARF unwinding tests.
 *
 * usage: deepstack [wait] N [qsort]
 *   main -> d11 -> d10 -> ... -> d1 -> d0 -> leaf   N times
 *   with qsort: main -> ... -> d0 -> qsort (libc) -> cmp -> leaf, so the
 *   stack goes through libc's code, which has no frame pointers either.
 * leaf makes one getppid system call itself (inline syscall), so at
 * tracepoint:syscalls:sys_enter_getppid the innermost frame is leaf.
 * Each dN keeps a value live across its call and adds to the result, so
 * that none is a tail call and each has a frame of its own size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "wait.h"

static int use_qsort;
static volatile long sink;

__attribute__((noinline)) static long leaf(void)
{
	long r;

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(r) : "a"((long)SYS_getppid)
			 : "rcx", "r11", "memory");
#else
	r = syscall(SYS_getppid);
#endif
	sink += r;
	return r;
}

__attribute__((noinline)) static int cmp(const void *a, const void *b)
{
	leaf();
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) static long d0(long x)
{
	if (use_qsort) {
		int v[2] = { (int)x, 1 };

		qsort(v, 2, sizeof(v[0]), cmp);
		return v[0] + x;
	}
	return leaf() + x;
}

/* DN(n, m): dn calls dm with a local array so its frame size differs. */
#define DN(n, m)							\
	__attribute__((noinline)) static long d##n(long x)		\
	{								\
		volatile long pad[n];					\
									\
		for (int i = 0; i < n; i++)				\
			pad[i] = x + i;					\
		return d##m(x + 1) + pad[n - 1];			\
	}
DN(1, 0)
DN(2, 1)
DN(3, 2)
DN(4, 3)
DN(5, 4)
DN(6, 5)
DN(7, 6)
DN(8, 7)
DN(9, 8)
DN(10, 9)
DN(11, 10)

int main(int argc, char **argv)
{
	int i = 1;
	long n;

	wait_maybe(argc, argv, &i);
	if (argc - i < 1 || argc - i > 2) {
		fputs("usage: deepstack [wait] N [qsort]\n", stderr);
		return 2;
	}
	n = num_arg(argv[i]);
	use_qsort = argc - i == 2 && !strcmp(argv[i + 1], "qsort");
	for (long i = 0; i < n; i++)
		sink += d11(i);
	return 0;
}
