#!/bin/bash
# An aggregation keyed by a narrow integer and a string: D's int keys
# keep their size in 8-byte slots, and the rest of the slot must be
# zero, or equal keys land in different rows (a process's syscalls
# spread over several rows instead of counted in one).
. "$SONDE_ROOT/tests/usdt/lib.sh"
( for i in $(seq 50); do ls / > /dev/null; done ) &
out=$("$SONDE" dtrace -qn 'syscall:::entry { @a[pid, "all"] = count(); } tick-1s { exit(0); }')
wait
dups=$(awk 'NF == 3 { print $1, $2 }' <<< "$out" | sort | uniq -d)
[[ -z $dups ]] || { echo "FAIL rows repeat: $dups"; echo "$out"; exit 1; }
grep -qE '^ +[0-9]+ +all +[0-9]+$' <<< "$out" || { echo "FAIL no row: $out"; exit 1; }
exit 0
