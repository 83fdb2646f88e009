#!/bin/bash
# D's BEGIN fires before any other probe is enabled: with a process
# writing all the time, the write probe's exit() cannot come first and
# keep BEGIN from running, and BEGIN's line is the first.
. "$SONDE_ROOT/tests/usdt/lib.sh"
( while :; do echo x > /dev/null; done ) &
writer=$!
out=$("$SONDE" dtrace -qn 'BEGIN { printf("begin\n"); } syscall::write:entry { printf("write\n"); exit(0); }')
kill $writer 2>/dev/null; wait $writer 2>/dev/null
first=$(head -1 <<< "$out")
[[ $first == begin ]] || { echo "FAIL first line '$first', not begin: $out"; exit 1; }
grep -qx write <<< "$out" || { echo "FAIL no write line: $out"; exit 1; }
exit 0
