/* coldstr.c - a string in a page the process never touches, for the
 * test that str() reads it anyway (a uprobe's program cannot fault a
 * page in unless it may sleep).  The string sits 512 KiB into a 1 MiB
 * constant array, far from the pages the program reads, so that the
 * kernel's fault-around (64 KiB) never maps it either; take() is
 * called with its address and never reads it.
 *
 * usage: coldstr [wait]
 */
#include "wait.h"

#define FAR (512 << 10)

static const char cold[1 << 20] __attribute__((aligned(4096))) = {
	[FAR] = 'c', 'o', 'l', 'd', ' ', 'p', 'a', 'g', 'e',
	/* and one across a page boundary, both pages untouched */
	[FAR + 2 * 4096 - 3] = 's', 'p', 'a', 'n', 's', ' ', 't', 'w', 'o',
};

__attribute__((noinline)) void take(const char *s)
{
	__asm__ volatile("" : : "r"(s) : "memory");
}

int main(int argc, char **argv)
{
	int i = 1;

	wait_maybe(argc, argv, &i);
	take(cold + FAR);
	take(cold + FAR + 2 * 4096 - 3);
	return 0;
}
