#!/bin/bash
# -p on processes started before sonde: the guarded probe is enabled in
# the traced process only while sonde runs (the kernel's reference
# counter, nothing written by sonde), and never in a second process of
# the same program; sonde ends when the process does; a gone PID is an
# error.  With -c, only the command's process.
. "$SONDE_ROOT/tests/usdt/lib.sh"
build loop -O2 "$USDT/loop.c"

./loop 0 10 traced.out &
traced=$!
./loop 0 10 other.out &
other=$!
sleep 0.3
trace "-p" -p $traced -e 'usdt:./loop:loop:tick { @pid[pid] = count(); @ticks = count(); @last = max(arg0); } interval:ms:400 { exit(); }'
sleep 0.2
kill -TERM $traced $other
wait $traced $other
# started late, stopped early
read -r _ enabled _ first _ last _ count < traced.out
(( enabled > 5 && first > 0 && last < count - 1 )) ||
	{ echo "FAIL: enabled only while traced:"; cat traced.out; exit 1; }
read -r _ enabled_other _ < other.out
same "other process" "enabled 0" "enabled $enabled_other"
# the semaphore goes up when the uprobe is registered, a little before
# the program is attached, and down a little after it is detached
ticks=$(awk '/^@ticks:/ { print $2 }' <<< "$out")
(( ticks <= enabled && ticks >= enabled / 2 )) ||
	{ echo "FAIL: $ticks probes fired, $enabled enabled:"; echo "$out"; exit 1; }
same "only the traced pid" "@pid[$traced]: $ticks" "$(grep '^@pid' <<< "$out")"

# -c: only the command's process, as bpftrace does, while another runs
./loop 0 10 bg.out &
bg=$!
sleep 0.1
trace "-c" -c './loop 30 10 c.out' -e 'usdt:./loop:loop:tick { @[pid == cpid] = count(); }'
kill -TERM $bg
wait $bg
same "-c process only" "@[1]: 30" "$(grep '^@' <<< "$out")"
same "-c enabled all along" "enabled 30 first 0 last 29 of 30" "$(cat c.out)"
read -r _ enabled_other _ < bg.out
same "not the other" "enabled 0" "enabled $enabled_other"

# sonde ends with the process
./loop 0 10 short.out &
short=$!
"$SONDE" -q -p $short -e 'usdt:./loop:loop:tick { @n = count(); }' > short.sonde 2>&1 &
tracer=$!
sleep 0.5
kill -TERM $short
wait $short
SECONDS=0
wait $tracer
st=$?
(( st == 0 && SECONDS < 5 )) || { echo "FAIL: sonde -p did not end with the process (exit $st):"; cat short.sonde; exit 1; }

# a process that is gone
./loop 1 0 gone.out &
gone=$!
wait $gone
out=$("$SONDE" -p $gone -e 'usdt:./loop:loop:tick { }' 2>&1) && { echo "FAIL: -p $gone ran"; exit 1; }
same "gone pid" "sonde: -p $gone: no such process" "$out"
exit 0
