#!/bin/bash
# A pointer into a D global (&a[1], or a variable declared int *) is
# kernel memory even in a pid clause, where an untyped pointer would
# be the process's: it is read back, not faulted on.
. "$SONDE_ROOT/tests/usdt/lib.sh"
printf 'int work(int x) { return x + 1; }\nint main(void) { return work(1) - 2; }\n' > p.c
cc -O0 -o p p.c || { echo "FAIL cc"; exit 1; }
cat > ptr.d <<'D'
#pragma D option quiet
int a[2];
int *q;
BEGIN { a[0] = 7; a[1] = 9; p = &a[1]; q = &a[0]; }
pid$target::work:entry { printf("%d %d %d\n", *p, p[-1], *q); exit(0); }
D
out=$("$SONDE" dtrace -s ptr.d -c ./p 2>&1)
same "pointers in a pid clause" "9 7 7" "$out"
exit 0
