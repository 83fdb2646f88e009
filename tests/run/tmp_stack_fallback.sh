#!/bin/bash
# Keys, values and records live on the BPF stack while it has room, and
# a program that needs no scratch memory does not look it up.  When the
# stack later runs out (here: a 456-byte key, then a product nested
# deeply enough to spill past the 512 bytes), the probe is compiled
# again with those temporaries in scratch; both forms must count right.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
prog() {	# depth of the nested product
	local e="(pid - pid + 1)" i
	for ((i = 2; i <= $1; i++)); do e="(pid - pid + $i) * ($e)"; done
	cat <<EOS
BEGIN {
	@m[str(0), str(0), str(0), str(0), str(0), str(0), str(0), $e] = count();
	@m[str(0), str(0), str(0), str(0), str(0), str(0), str(0), $e] = count();
	@n[comm] = count();
	print(@m); clear(@m);
	exit();
}
EOS
}
check() {	# depth, "scratch" or "stack", the product
	prog "$1" > "$dir/p.bt"
	"$SONDE" --dump=bpf "$dir/p.bt" > "$dir/bpf" 2>&1 ||
		{ echo "depth $1: --dump failed"; cat "$dir/bpf"; fail=1; return; }
	if [[ $2 == stack ]] && grep -q 'scratch' "$dir/bpf"; then
		echo "depth $1: looks up scratch, want everything on the stack"; fail=1
	elif [[ $2 == scratch ]] && ! grep -q 'scratch' "$dir/bpf"; then
		echo "depth $1: no scratch, want the fallback"; fail=1
	fi
	out=$("$SONDE" -q "$dir/p.bt" 2>&1)
	[[ $out == "@m[, , , , , , , $3]: 2"* ]] ||
		{ echo "depth $1: got: $out"; fail=1; }
	[[ $out == *"@n[sonde]: 1"* ]] || { echo "depth $1: no @n[sonde]: $out"; fail=1; }
}
check 2 stack 2
check 7 scratch 5040
exit $fail
