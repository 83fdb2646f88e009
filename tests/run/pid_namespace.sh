#!/bin/bash
# pid(curr_ns) and tid(curr_ns) are the ids in sonde's own pid
# namespace, pid(init) and tid(init) those in the initial one: sonde run
# as pid 1 of a new namespace sees itself as 1 and 1 in it.
set -u
command -v unshare >/dev/null || { echo "no unshare"; exit 77; }
out=$(unshare -p -f --mount-proc "$SONDE" -e 'BEGIN {
	printf("%d %d %d %d\n", pid(curr_ns), tid(curr_ns),
	       pid(init) == pid, pid(init) > 1);
	exit(); }' 2>&1)
want='Attaching 1 probe...
1 1 1 1'
[[ $out == "$want" ]] || { printf 'got:\n%s\nwant:\n%s\n' "$out" "$want"; exit 1; }
