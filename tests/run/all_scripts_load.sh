#!/bin/bash
# Every valid script of the test suite must pass the kernel's verifier:
# a rejected program is a sonde bug.  --dry-run loads without running.
set -u
cd "$SONDE_ROOT/tests" || exit 1
fail=0 n=0
for f in codegen/*.bt ast/*.bt run/*.bt; do
	[[ -e $f ]] || continue
	args=()
	if [[ -f ${f%.bt}.args ]]; then
		read -r -a args < "${f%.bt}.args"
	fi
	# scripts expected to fail at run time still have to load
	if ! out=$(cd "$(dirname "$f")" && timeout 30 "$SONDE" --dry-run "$(basename "$f")" "${args[@]}" 2>&1); then
		echo "FAIL $f: $out" | head -20
		fail=1
	fi
	n=$((n + 1))
done
echo "$n scripts loaded"
exit $fail
