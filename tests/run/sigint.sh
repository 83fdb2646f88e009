#!/bin/bash
# SIGINT ends a run like exit(): END runs, then the maps are printed, and
# sonde exits 0.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$SONDE" -e 'interval:ms:10 { @ticks++; @h = hist(5); }
	END { printf("end ran %d\n", @ticks > 0); clear(@ticks); }' \
	> "$dir/out" 2> "$dir/err" &
pid=$!
# wait until it is running (the Attaching line is printed), at most 10 s
for _ in $(seq 100); do
	grep -qs Attaching "$dir/out" && break
	sleep 0.1
done
sleep 0.3
kill -INT $pid
wait $pid
rc=$?
[[ $rc == 0 ]] || { echo "exit status $rc, want 0"; cat "$dir/err"; exit 1; }
want='Attaching 2 probes...
end ran 1


@h: 
[4, 8)'
got=$(sed 's/ *[0-9]* |@*|$//' "$dir/out")
[[ $got == "$want" ]] || { diff <(echo "$want") <(echo "$got"); exit 1; }
exit 0
