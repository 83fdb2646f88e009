#!/bin/bash
# A loop the verifier cannot bound is the script's problem, not a sonde
# bug: say so, show the line, exit 1.
out=$("$SONDE" -e 'BEGIN { $i = 0; while ($i >= 0) { $i++; } }' 2>&1)
rc=$?
[[ $rc -eq 1 ]] || { echo "exit $rc, want 1"; exit 1; }
grep -q "could not prove that a loop ends" <<<"$out" || { echo "no loop message: $out"; exit 1; }
grep -q "bug in sonde" <<<"$out" && { echo "blames sonde: $out"; exit 1; }
grep -q '^-e:1: instruction' <<<"$out" || { echo "no script line: $out"; exit 1; }
exit 0
