#!/bin/bash
# Ctrl-C stops sonde while system() commands run: a probe that its own
# system() feeds (every command switches tasks), in text and JSON, and
# a command that outlives the signal.  Each run must end with status 0
# and the exit's output within 3 s of SIGINT.
set -u
dir=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL $pid 2>/dev/null; rm -rf "$dir"' EXIT

# run WANT SONDE-ARGS...: start sonde, wait until its output holds WANT
# (an extended regex), SIGINT it, and wait at most 3 s for its exit.
run() {
	local want=$1 i rc t0 ms
	kids=
	shift
	"$SONDE" --unsafe "$@" > "$dir/out" 2> "$dir/err" &
	pid=$!
	for (( i = 0; i < 200; i++ )); do
		grep -qE "$want" "$dir/out" && break
		sleep 0.05
	done
	grep -qE "$want" "$dir/out" || { echo "no '$want' in: $(head -c 300 "$dir/out")"; cat "$dir/err"; exit 1; }
	kids=$(pgrep -P $pid)
	t0=$(date +%s%N)
	kill -INT $pid
	for (( i = 0; i < 60; i++ )); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	if kill -0 $pid 2>/dev/null; then
		echo "sonde $* still runs ${ms} ms after SIGINT"
		exit 1
	fi
	wait $pid
	rc=$?
	pid=
	(( rc == 0 )) || { echo "sonde $*: exit status $rc"; cat "$dir/err"; exit 1; }
	[[ -s $dir/err ]] && { echo "sonde $*: stderr: $(cat "$dir/err")"; exit 1; }
	return 0
}

run '^foo$' -e 'tracepoint:sched:sched_switch { system("echo foo"); @n = count(); }'
# the maps are printed after the last command's line
tail -1 "$dir/out" | grep -qE '^@n: [0-9]+$' || { echo "no @n at the end: $(tail -3 "$dir/out")"; exit 1; }

run '"syscall"' -f json -e 'tracepoint:sched:sched_switch { system("echo foo"); @n = count(); }'
tail -1 "$dir/out" | grep -qE '^\{"type": "map", "data": \{"@n": [0-9]+\}\}$' ||
	{ echo "no @n at the end: $(tail -3 "$dir/out")"; exit 1; }

# sleep's shell waits on, SIGINT or not: sonde gives it a second, then
# leaves it (a Ctrl-C would have reached sleep too: same process group)
run '^start$' -e 'BEGIN { printf("start\n"); system("sleep 20"); }'
for k in $kids; do
	pkill -P "$k"
	kill "$k"
done
exit 0
