/* srcline.c - statements at known source lines, for uprobes on a
 * source location (uprobe:PROG@srcline.c:LINE): the test finds each
 * line by its marker comment.  work(N) runs the loop's statement N
 * times (a volatile store, which the compiler keeps); main calls it
 * once.  make progs builds it with -g.
 *
 * usage: srcline [N]
 */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) int work(int n)
{
	for (int i = 0; i < n; i++)
		sink = sink + i; /* LOOP */
	return sink; /* RET */
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;

	printf("%d\n", work(n)); /* CALL */
	return 0;
}
