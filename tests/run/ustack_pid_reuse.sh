#!/bin/bash
# A pid that comes round again does not take the mappings of the
# earlier process with it: the stacks of both print with names.  sonde
# once replaced the kept table of a process at the fork of the next one
# with its pid, so the earlier process's stacks printed hex (pid_max is
# 32768 on many machines: a long trace sees pids reused).  The pid is
# made to come round with /proc/sys/kernel/ns_last_pid; another process
# may take it first, so this tries up to 20 times.
set -u
. "$SONDE_ROOT/tests/lib/ustack.sh"
last=/proc/sys/kernel/ns_last_pid
[[ -w $last ]] || { echo "cannot write $last"; exit 77; }
dir=$(mktemp -d)
spid=
trap '[[ -n $spid ]] && kill -KILL $spid 2>/dev/null; rm -rf "$dir"' EXIT
ustack_prog "$dir/p" -fPIE -pie || exit 1
"$SONDE" -q -e "BEGIN { printf(\"ready\\n\"); }
	uprobe:$dir/p:third_fn+4 { @[ustack(5)] = count(); }" > "$dir/out" 2> "$dir/err" & spid=$!
wait_line "$dir/out" '^ready$' || { echo "sonde did not start: $(cat "$dir/err")"; exit 1; }
"$dir/p" 1 & want=$!
wait $want
runs=1 reused=0
for ((i = 0; i < 20 && !reused; i++)); do
	echo $((want - 1)) > "$last"
	"$dir/p" 1 & got=$!
	wait $got
	runs=$((runs + 1))
	if (( got == want )); then
		reused=1
	else
		want=$got	# taken: try for this one's pid
	fi
done
kill -INT $spid
wait $spid || { echo "sonde failed: $(cat "$dir/err")"; exit 1; }
spid=
(( reused )) || { echo "pid $want never came round again"; exit 77; }
[[ -s $dir/err ]] && { echo "stderr: $(cat "$dir/err")"; exit 1; }
# one stack per run (each process's addresses are its own), each named
n=$(grep -c '^@\[$' "$dir/out")
(( n == runs )) || { echo "$n stacks for $runs runs:"; cat "$dir/out"; exit 1; }
good=$(awk '/^@\[$/ { f = ""; next }
	/^    / { f = f " " $1; next }
	/^\]: 1$/ { if (f ~ /^ third_fn\+4 second_fn\+[0-9]+ first_fn\+[0-9]+ call_fn\+[0-9]+ main\+[0-9]+$/) g++ }
	END { print g + 0 }' "$dir/out")
(( good == runs )) || { echo "$good of $runs stacks named:"; cat "$dir/out"; exit 1; }
exit 0
