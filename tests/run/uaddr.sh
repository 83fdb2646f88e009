#!/bin/bash
# uaddr("symbol"): the run-time address of a global of the probed file,
# in a non-PIE and a PIE program (where it moves with the load address):
# the program passes &counter to a function, and uaddr must equal it.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
long counter = 42;
__attribute__((noipa)) long peek(long *p) { return *p; }
int main(void) { return peek(&counter) != 42; }
C
for pie in -no-pie -pie; do
	cc -O1 -fPIE $pie -o "$dir/p" "$dir/p.c" || exit 1
	out=$("$SONDE" -q -c "$dir/p" -e "uprobe:$dir/p:peek { printf(\"%d\\n\", arg0 == uaddr(\"counter\")); }" 2>&1)
	[[ "$out" == $'1\n\n' || "$out" == "1" ]] || { echo "$pie: got: $out"; exit 1; }
done
exit 0
