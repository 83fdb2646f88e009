#!/bin/bash
# ustack in a profile probe: -c's command spins in spin_fn (called by
# outer_fn, called by main) for about half a second and exits; the
# samples print at sonde's exit with function names, in a key with
# comm.  Also in a software event (page faults of the same program).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/busy.c" <<'C'
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
__attribute__((noinline)) void tick(volatile long *x) { *x += 1; }
/* not a leaf: a leaf builds no frame, and its caller would be missed */
__attribute__((noinline)) long spin_fn(volatile long *x) { for (long i = 0; i < 2000000; i++) { *x += i; if (!(i & 0xfffff)) tick(x); } return *x; }
__attribute__((noinline)) long outer_fn(volatile long *x) { return spin_fn(x) + 1; }
int main(void)
{
	volatile long x = 0;
	double end = now() + 0.5;
	char *p = malloc(1 << 22);

	for (int i = 0; i < (1 << 22); i += 4096)
		p[i] = 1;
	while (now() < end)
		outer_fn(&x);
	return p[4096] == 2;
}
C
cc -O1 -fno-omit-frame-pointer -o "$dir/busy" "$dir/busy.c" || exit 1
out=$("$SONDE" -q -c "$dir/busy" -e 'profile:hz:499 /pid == cpid/ { @[ustack(3), comm] = count(); }
	software:page-faults:1 /pid == cpid/ { @f[ustack(1)] = count(); }' 2>&1)
fail=0
grep -qzP '\n@\[\n    spin_fn\+[0-9]+\n    outer_fn\+[0-9]+\n    main\+[0-9]+\n, busy\]: [0-9]+\n' <<< "$out" ||
	{ echo "no spin_fn <- outer_fn <- main sample"; fail=1; }
grep -qzP '\n@f\[\n    main\+[0-9]+\n\]: [0-9]+\n' <<< "$out" ||
	{ echo "no page fault in main"; fail=1; }
(( fail )) && printf '%s\n' "$out"
exit $fail
