/* dtrace_calls.c - probes placed the way DTrace's <sys/sdt.h> places
 * them (calls to __dtrace_PROV___NAME(), each argument an unsigned
 * long; is-enabled as a call to __dtraceenabled_PROV___NAME()), which
 * `sonde dtrace -G` rewrites: tests/run/dtrace_g_objects.sh.  helper()
 * passes two arguments on the stack; tail() makes the probe call its
 * tail call (a jump at -O2). */
#include <stdio.h>
#include <unistd.h>

extern void __dtrace_calls___go(unsigned long, unsigned long);
extern void __dtrace_calls___zero(void);
extern void __dtrace_calls___many(unsigned long, unsigned long, unsigned long,
				  unsigned long, unsigned long, unsigned long,
				  unsigned long, unsigned long);
extern int __dtraceenabled_calls___go(void);

static char tl[] = "tail";

__attribute__((noinline)) void tail(long i)
{
	__dtrace_calls___go((unsigned long)(i + 100), (unsigned long)tl);
}

__attribute__((noinline)) void helper(long i)
{
	__dtrace_calls___many((unsigned long)i, 2, 3, 4, 5, 6, 7,
			      (unsigned long)(80 + i));
}

int main(void)
{
	static char hi[] = "hi";
	int on = 0;

	for (long i = 0; i < 3; i++) {
		on += __dtraceenabled_calls___go() != 0;
		__dtrace_calls___go((unsigned long)i, (unsigned long)hi);
		__dtrace_calls___zero();
		helper(i);
		tail(i);
		usleep(1000);
	}
	printf("enabled %d\n", on);
	return 0;
}
