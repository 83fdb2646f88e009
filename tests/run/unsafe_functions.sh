#!/bin/bash
# --unsafe functions on a real kernel: signal() by name and by computed
# number reaches the traced process (its exit status says which signal
# killed it), and system() runs its formatted command in event order,
# its output going where sonde's goes (-o FILE).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"; kill -9 $victim 2>/dev/null' EXIT
fail=0
victim=
kill_with() {	# expected signal number, the signal() argument
	"$SONDE_PROGS/syscalls" wait getppid 100000000 2> "$dir/victim" & victim=$!
	"$SONDE" -q --unsafe -p $victim -e "
BEGIN { printf(\"ready\\n\"); }
tracepoint:syscalls:sys_enter_getppid { signal($2); exit(); }" > "$dir/out" 2>&1 &
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
		{ echo "signal($2): victim exit $st, want $((128 + $1)); sonde said: $(cat "$dir/out")"; fail=1; }
}
kill_with 12 '"SIGUSR2"'
kill_with 9 '"KILL"'
kill_with 15 '10 + (pid - pid) + 5'

"$SONDE" -q --unsafe -o "$dir/file" -e '
BEGIN { printf("a\n"); system("echo b %d %s", 7, "x"); printf("c\n"); exit(); }' \
	> "$dir/stdout" 2>&1 || { echo "system(): sonde failed: $(cat "$dir/stdout")"; fail=1; }
want=$'a\nb 7 x\nc'
[[ $(cat "$dir/file") == "$want" ]] ||
	{ echo "system(): -o file has:"; cat "$dir/file"; fail=1; }
[[ ! -s $dir/stdout ]] || { echo "system(): stdout not empty: $(cat "$dir/stdout")"; fail=1; }
exit $fail
