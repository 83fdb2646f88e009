/* inline.c - one probe, several locations: an inline function with a
 * probe used in three places, each with its own operands. */
#include <sonde/sdt.h>

static volatile long seed = 5;

static inline __attribute__((always_inline)) void step(int where, long v)
{
	SONDE_PROBE(inl, step, where, v);
}

int main(void)
{
	long x = seed;

	step(1, x);
	step(2, x * 3);
	step(3, -x);
	return 0;
}
