#!/bin/bash
# SIGTERM ends a run the same way as SIGINT: END runs, maps are printed,
# exit status 0 (as bpftrace does).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$SONDE" -e 'BEGIN { @a = 1; } END { printf("end %d\n", @a); }' \
	> "$dir/out" 2> "$dir/err" &
pid=$!
for _ in $(seq 100); do
	grep -qs Attaching "$dir/out" && break
	sleep 0.1
done
sleep 0.2
kill -TERM $pid
wait $pid
rc=$?
[[ $rc == 0 ]] || { echo "exit status $rc, want 0"; cat "$dir/err"; exit 1; }
want=$'Attaching 2 probes...\nend 1\n\n\n@a: 1'
got=$(cat "$dir/out")
[[ $got == "$want" ]] || { diff <(echo "$want") <(echo "$got"); exit 1; }
exit 0
