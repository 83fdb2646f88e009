#!/bin/bash
# signal_thread() (bpftrace 0.26, --unsafe): the signal reaches the
# traced thread, by name and by number (the victim's exit status says
# which signal killed it).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill -9 $victim 2>/dev/null' EXIT
fail=0
victim=
kill_with() {	# expected signal number, the signal_thread() argument
	"$SONDE_PROGS/syscalls" wait getppid 100000000 2> "$dir/victim" & victim=$!
	"$SONDE" --dialect=0.26 -q --unsafe -p $victim -e "
begin { printf(\"ready\\n\"); }
tracepoint:syscalls:sys_enter_getppid { signal_thread($2); exit(); }" > "$dir/out" 2>&1 &
	local tracer=$!
	for _ in $(seq 100); do
		grep -q ready "$dir/out" && grep -q waiting "$dir/victim" && break
		sleep 0.1
	done
	kill -USR1 $victim	# start calling getppid
	wait $victim
	local st=$?
	wait $tracer
	[[ $st == $((128 + $1)) ]] ||
		{ echo "signal_thread($2): victim exit $st, want $((128 + $1)); sonde said: $(cat "$dir/out")"; fail=1; }
}
kill_with 12 '"SIGUSR2"'
kill_with 15 '15'
exit $fail
