/* stackargs.c - a trigger for the tests of sarg0..sargN, kptr() and
 * uptr(): one call ten_args(1, 2, ..., 8, msg, &v), whose last four
 * arguments the x86-64 ABI passes on the stack (the first six go in
 * registers); msg is "hello", v is 42, both written before the call so
 * that their pages are in memory (BPF cannot fault a page in).  Prints
 * the sum of the arguments and exits 0.
 *
 * usage: stackargs
 */
#include <stdio.h>
#include <string.h>

long ten_args(long a, long b, long c, long d, long e, long f, long g, long h,
	      const char *s, const long *p);

static char msg[16];

__attribute__((noinline)) long ten_args(long a, long b, long c, long d,
					long e, long f, long g, long h,
					const char *s, const long *p)
{
	return a + b + c + d + e + f + g + h + s[0] + *p;
}

int main(void)
{
	long v = 42;

	strcpy(msg, "hello");
	printf("%ld\n", ten_args(1, 2, 3, 4, 5, 6, 7, 8, msg, &v));
	return 0;
}
