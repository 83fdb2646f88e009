#!/bin/bash
# self:signal:SIGUSR1 (bpftrace 0.26): the blocks run in sonde, in the
# order written, each time sonde receives SIGUSR1; probe and probetype
# name them; exit() in one ends the run.  Under 0.26 SIGUSR1 no longer
# prints the maps (the script prints what it wants); --dialect=0.17
# keeps that print, before the self probes.
set -u
dir=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -KILL $pid 2>/dev/null; rm -rf "$dir"' EXIT
die() { echo "$*"; cat "$dir/out" "$dir/err"; exit 1; }

# lines N: wait (5 s at most) until the output has N lines
lines() {
	local i
	for (( i = 0; i < 100; i++ )); do
		(( $(wc -l < "$dir/out") >= $1 )) && return 0
		sleep 0.05
	done
	die "want $1 lines, got: $(cat "$dir/out")"
}

prog='BEGIN { @b[1] = 2; printf("ready\n"); }
self:signal:SIGUSR1 { @n++; printf("first %d\n", @n); }
self:signal:SIGUSR1 { printf("second %s %s\n", probe, probetype);
	if (@n == 2) { print(@b); exit(); } }'
"$SONDE" --dialect=0.26 -e "$prog" > "$dir/out" 2> "$dir/err" &
pid=$!
lines 1
kill -USR1 $pid
lines 3
kill -USR1 $pid
wait $pid || die "exit status $?"
pid=
want='ready
first 1
second self:signal:SIGUSR1 self
first 2
second self:signal:SIGUSR1 self
@b[1]: 2


@b[1]: 2
@n: 2'
[[ $(cat "$dir/out") == "$want" ]] || die "self probes: $(cat "$dir/out")"
[[ $(cat "$dir/err") == "Attached 3 probes" ]] || die "stderr"

# 0.26 without a self probe: SIGUSR1 is taken, prints nothing, the run
# goes on (an interval keeps it going: a script of BEGIN alone ends)
: > "$dir/out"	# before the next sonde starts: lines() reads it
"$SONDE" --dialect=0.26 -e 'BEGIN { @c = 7; printf("ready\n"); } interval:s:100 { }' > "$dir/out" 2> "$dir/err" &
pid=$!
lines 1
kill -USR1 $pid
sleep 0.3
kill -0 $pid 2>/dev/null || die "sonde stopped on SIGUSR1"
kill -INT $pid
wait $pid || die "exit status $?"
pid=
[[ $(cat "$dir/out") == $'ready\n\n\n@c: 7' ]] || die "0.26 print: $(cat "$dir/out")"

# the short form, and 0.17: the maps first, then the probe
: > "$dir/out"
"$SONDE" --dialect=0.17 -e 'BEGIN { @c = 7; printf("ready\n"); } self:signal:USR1 { printf("usr1\n"); }' > "$dir/out" 2> "$dir/err" &
pid=$!
lines 2
kill -USR1 $pid
lines 4
kill -INT $pid
wait $pid || die "exit status $?"
pid=
[[ $(cat "$dir/out") == $'Attaching 2 probes...\nready\n@c: 7\nusr1\n\n\n@c: 7' ]] || die "0.17 print: $(cat "$dir/out")"

# -l lists them as written, and -l 'self:*' those there are
[[ $("$SONDE" -l -e 'self:signal:SIGUSR1 { }') == "self:signal:SIGUSR1" ]] || die "-l"
[[ $("$SONDE" -l 'self:*') == "self:signal:SIGUSR1" ]] || die "-l self:*"
exit 0
