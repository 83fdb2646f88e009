/* raised.c - a trigger for sonde dtrace's all-at-once enabling: it
 * calls getpid() in a loop until SIGUSR1 arrives, whose handler calls
 * caught(10 arguments) and exits 0.  A D script that raise()s SIGUSR1
 * from getpid's return sees the call to caught() only if its pid probe
 * was enabled together with the syscall probe (DTrace enables every
 * probe before any fires).  After 10 s without the signal it exits 1.
 *
 * usage: raised
 */
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

long caught(long a, long b, long c, long d, long e, long f, long g,
	    long h, long i, long j);

__attribute__((noinline)) long caught(long a, long b, long c, long d,
				      long e, long f, long g, long h,
				      long i, long j)
{
	return a + b + c + d + e + f + g + h + i + j;
}

static void handle(int sig)
{
	(void)sig;
	exit(caught(0, 1, 2, 3, 4, 5, 6, 7, 8, 9) == 45 ? 0 : 2);
}

int main(void)
{
	time_t end = time(NULL) + 10;

	signal(SIGUSR1, handle);
	while (time(NULL) < end)
		getpid();
	return 1;
}
