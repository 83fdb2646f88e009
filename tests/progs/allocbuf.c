/* allocbuf.c - a trigger for override() in uprobes (tests/guest/
 * uprobe_override.sh): alloc_buffer() and malloc() hand out memory, and
 * the program says for each call whether it got some or NULL.
 *
 * usage: allocbuf [N]   N calls of alloc_buffer(64) (default 1), then
 *                       one malloc(32)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Not inlined, and with a body a compiler keeps: the probe's target. */
__attribute__((noinline)) void *alloc_buffer(size_t n)
{
	void *p = malloc(n);

	if (p)
		memset(p, 1, n);
	__asm__ volatile("" : : "r"(p) : "memory");
	return p;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	void *q;

	setvbuf(stdout, NULL, _IONBF, 0);	/* no malloc of its own */
	for (int i = 0; i < n; i++) {
		void *p = alloc_buffer(64);

		printf("alloc_buffer: %s\n", p ? "ok" : "NULL");
		free(p);
	}
	q = malloc(32);
	printf("malloc: %s\n", q ? "ok" : "NULL");
	free(q);
	return 0;
}
