#!/bin/bash
# watchpoint:ADDR:8:w on a global of a running non-PIE program (-p):
# the breakpoint fires on each store, in the program only, and kstack
# works in the probe.  (With -c the kernel's own clearing of .bss during
# execve also counts, 8 writes here, as with bpftrace 0.17.)
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/w.c" <<'C'
#include <unistd.h>
volatile long counter;
int main(void) { sleep(1); for (int i = 0; i < 5; i++) counter = i; return 0; }
C
cc -O1 -no-pie -o "$dir/w" "$dir/w.c" || exit 1
addr=$(nm "$dir/w" | awk '$3 == "counter" { print "0x" $1 }')
"$dir/w" & wpid=$!
out=$("$SONDE" -q -p $wpid -e "watchpoint:$addr:8:w { @[comm] = count(); @k = count(); }" 2>&1) || { echo "sonde failed: $out"; exit 1; }
want=$(printf '\n\n@[w]: 5\n@k: 5')
[[ "$out" == "$want" ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
# a kernel stack in a watchpoint probe attaches (it did not with precise_ip)
"$SONDE" -q -c "$dir/w" -e "watchpoint:$addr:8:w { @s[kstack(2)] = count(); }" >/dev/null 2>&1 ||
	{ echo "kstack in a watchpoint probe failed"; exit 1; }
# the length of an execute watchpoint
out=$("$SONDE" -q -c "$dir/w" -e "watchpoint:$addr:4:x { }" 2>&1)
[[ $? -eq 1 && $out == *"must have length 8"* ]] || { echo "x with length 4: $out"; exit 1; }
exit 0
