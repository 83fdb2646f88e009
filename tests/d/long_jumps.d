/* One clause of some 40,000 instructions: jumps from its start to its
 * end go further than a BPF jump reaches (32767), through islands
 * (bpf/asm.c). */
#pragma D option quiet

self signed char c;
self short s;
self int i;
self unsigned long long L;

#define T(x) \
	self->c = (signed char)(x); self->s = (short)(x); \
	self->i = (int)(x); self->L = (unsigned long long)(x); \
	n += self->c + self->s + self->i + self->L; \
	printf("%d %d %d %d\n", self->c, self->s, self->i, self->L);
#define T10(x) T(x) T(x + 1) T(x + 2) T(x + 3) T(x + 4) T(x + 5) T(x + 6) \
	T(x + 7) T(x + 8) T(x + 9)
#define T100(x) T10(x) T10(x + 10) T10(x + 20) T10(x + 30) T10(x + 40) \
	T10(x + 50) T10(x + 60) T10(x + 70) T10(x + 80) T10(x + 90)

BEGIN
{
	T100(0x7f7f)
	T100(0x7fffffff)
	printf("n = %d\n", n);
	exit(0);
}
