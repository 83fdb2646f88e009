/* jitmap.c - JIT-compiled code, as a JIT makes it: machine code copied
 * into anonymous executable memory and named in /tmp/perf-PID.map, for
 * the perf map and mixed-stack tests.
 *
 * usage: jitmap [wait] N
 *   main -> caller -> jit_getppid (the copied code)   N times
 * jit_getppid sets up a frame (push %rbp; mov %rsp,%rbp), makes the
 * getppid system call itself and returns: the walker finds no file
 * there and steps by its frame pointer back into caller, which has call
 * frame information and no frame pointer.  The map file stays, as a
 * JIT's does for perf to read after the run: the test removes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wait.h"

__attribute__((noinline)) static long caller(long (*fn)(void), long x)
{
	volatile long pad[3] = { x, x + 1, x + 2 };

	return fn() + pad[x % 3];
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	static const unsigned char code[] = {
		0x55,				/* push %rbp */
		0x48, 0x89, 0xe5,		/* mov %rsp,%rbp */
		0xb8, 0x6e, 0x00, 0x00, 0x00,	/* mov $110 (getppid),%eax */
		0x0f, 0x05,			/* syscall */
		0x5d,				/* pop %rbp */
		0xc3,				/* ret */
	};
	int i = 1;
	long n, s = 0;
	void *mem;
	char map_path[64];
	FILE *f;

	wait_maybe(argc, argv, &i);
	if (argc - i != 1) {
		fputs("usage: jitmap [wait] N\n", stderr);
		return 2;
	}
	n = num_arg(argv[i]);
	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memcpy(mem, code, sizeof(code));
	snprintf(map_path, sizeof(map_path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(map_path, "w");
	if (!f) {
		perror(map_path);
		return 1;
	}
	fprintf(f, "%lx %zx jit_getppid\n", (unsigned long)mem, sizeof(code));
	fclose(f);
	for (long k = 0; k < n; k++)
		s += caller((long (*)(void))mem, k);
	return s == 1;
#else
	(void)argc;
	(void)argv;
	fputs("jitmap: x86-64 only\n", stderr);
	return 77;
#endif
}
