/* usdt64.c - seed of the ELF fuzz target (tests/fuzz/make-seeds.sh):
 * a 64-bit program without libc holding USDT notes (one with a
 * semaphore), global and local symbols.  Built static, PIE, as a
 * shared object and as a relocatable object. */
#include <sonde/sdt.h>

SONDE_SEMAPHORE(app, guarded);
int counter;
static long total;

__attribute__((noinline)) int work(int a, long b)
{
	SONDE_PROBE(app, start, a, b, &counter, 5);
	if (SONDE_ENABLED(app, guarded))
		SONDE_PROBE_SEM(app, guarded, a);
	total += a;
	return a + (int)b + counter;
}

int main(void)
{
	return work(1, 2);
}

void _start(void)
{
	__asm__ volatile("mov $60, %eax; xor %edi, %edi; syscall");
}
