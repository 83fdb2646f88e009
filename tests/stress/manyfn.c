/* manyfn.c - 1,000 functions, fn000 to fn999, for the stress case that
 * puts a uprobe on each (tests/stress/run.sh).
 *
 * usage: manyfn [wait] CALLS
 *   calls each function CALLS times, then getppid() CALLS times.
 * Each function adds its own number to a volatile global, so no two
 * bodies are alike and the compiler cannot fold them into one address.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../progs/wait.h"

volatile long sink;

#define F1(n) __attribute__((noinline, used)) void fn##n(void) { sink += 1##n; }
#define F10(n) F1(n##0) F1(n##1) F1(n##2) F1(n##3) F1(n##4) \
	F1(n##5) F1(n##6) F1(n##7) F1(n##8) F1(n##9)
#define F100(n) F10(n##0) F10(n##1) F10(n##2) F10(n##3) F10(n##4) \
	F10(n##5) F10(n##6) F10(n##7) F10(n##8) F10(n##9)
F100(0) F100(1) F100(2) F100(3) F100(4) F100(5) F100(6) F100(7) F100(8) F100(9)

#define P1(n) fn##n,
#define P10(n) P1(n##0) P1(n##1) P1(n##2) P1(n##3) P1(n##4) \
	P1(n##5) P1(n##6) P1(n##7) P1(n##8) P1(n##9)
#define P100(n) P10(n##0) P10(n##1) P10(n##2) P10(n##3) P10(n##4) \
	P10(n##5) P10(n##6) P10(n##7) P10(n##8) P10(n##9)
static void (*const fns[])(void) = {
	P100(0) P100(1) P100(2) P100(3) P100(4)
	P100(5) P100(6) P100(7) P100(8) P100(9)
};

int main(int argc, char **argv)
{
	int i = 1;
	long calls;

	wait_maybe(argc, argv, &i);
	if (i + 1 != argc) {
		fprintf(stderr, "usage: manyfn [wait] CALLS\n");
		return 2;
	}
	calls = num_arg(argv[i]);
	for (long c = 0; c < calls; c++)
		for (size_t k = 0; k < sizeof(fns) / sizeof(fns[0]); k++)
			fns[k]();
	for (long c = 0; c < calls; c++)
		syscall(SYS_getppid);
	return 0;
}
