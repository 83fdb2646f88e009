#!/bin/bash
# reg("ip") in a profile probe (the perf context starts with pt_regs):
# a program spinning in one function is caught there by usym.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
#include <time.h>
__attribute__((noinline)) void spin_here(void) { volatile unsigned long i; time_t end = time(0) + 1; while (time(0) <= end) for (i = 0; i < 100000; i++) ; }
int main(void) { spin_here(); return 0; }
C
cc -O1 -o "$dir/p" "$dir/p.c" || exit 1
out=$("$SONDE" -q -c "$dir/p" -e 'profile:hz:99 /pid == cpid/ { @[usym(reg("ip"))] = count(); }' 2>&1)
grep -qE '^@\[spin_here\]: [0-9]+$' <<<"$out" || { echo "spin_here not seen: $out"; exit 1; }
