#!/bin/bash
# Every one-liner of examples/one-liners.md whose probes this host has
# compiles and loads (--dry-run: the verifier accepts it); the kernel
# function ones (kprobe, kretprobe, fentry, fexit) load in the guest
# tier (tests/guest/one_liners.sh).
set -u
fail=0 n=0
while IFS= read -r line; do
	[[ $line == "    sonde -e "* ]] || continue
	[[ $line == *"'"k*probe:* || $line == *"'"f*:* ]] && continue
	cmd=${line#    sonde }
	eval "set -- $cmd"
	out=$("$SONDE" --dry-run "$@" 2>&1) || { echo "does not load: sonde $cmd"; echo "$out" | head -5; fail=1; }
	n=$((n + 1))
done < "$SONDE_ROOT/examples/one-liners.md"
(( n >= 12 )) || { echo "only $n one-liners found"; fail=1; }
exit $fail
