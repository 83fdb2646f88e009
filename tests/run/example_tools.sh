#!/bin/bash
# The tools in examples/tools whose probes this host has run as a user
# runs them (the file, its shebang line's interpreter being sonde) and
# report what a trigger did: syscount, opensnoop, execsnoop, killsnoop,
# biolatency (direct I/O to a file), runqlat and profile.  The kprobe
# tools run in the guest tier (tests/guest/tool_examples.sh).
. "$SONDE_ROOT/tests/lib/trace.sh"
tools=$SONDE_ROOT/examples/tools
export TRIG_COMM=ex-$$
fail=0
# run_tool TOOL [ARG...] -- TRIGGER-ARGS: the tool in the background
# until its header is out, then the trigger, then SIGINT.
run_tool() {
	local t=$1 targs=() args=()
	shift
	while [[ $1 != -- ]]; do args+=("$1"); shift; done
	shift
	targs=("$@")
	trigger_start syscalls "${targs[@]}"
	"$SONDE" "$tools/$t" "${args[@]}" > "$work/out" 2> "$work/err" &
	TRACER=$!
	wait_for "$work/out" "$HEADER" || die "$t did not start: $(cat "$work/err")"
	trigger_go
	sleep 0.3
	tracer_stop
	cp "$work/out" "$work/$t.out"
}
want() {	# TOOL ERE: a line of the tool's output must match
	grep -qE -- "$2" "$work/$1.out" && return 0
	echo "$1: no line matching '$2':"
	sed 's/^/    /' "$work/$1.out" | head -30
	fail=1
}

HEADER='^Counting syscalls'
run_tool syscount.bt -- getppid 200000
want syscount.bt "^@syscall\[$NR_getppid\]: 2[0-9]{5}$"
want syscount.bt "^@process\[$TRIG_COMM\]: 2000[0-9][0-9]$"
want syscount.bt '^Top 10 processes:$'

HEADER='^PID +COMM'
cat /no/such/file-$$ 2> /dev/null &	# before the tool is ready: not seen
run_tool opensnoop.bt -- open /etc/hostname
want opensnoop.bt "^[0-9]+ +$TRIG_COMM +[0-9]+ +0 /etc/hostname$"
"$SONDE" "$tools/opensnoop.bt" > "$work/out" 2> "$work/err" &
TRACER=$!
wait_for "$work/out" "$HEADER" || die "opensnoop did not start"
cat /no/such/file-$$ 2> /dev/null
sleep 0.3
tracer_stop
cp "$work/out" "$work/opensnoop.bt.out"
want opensnoop.bt "^[0-9]+ +cat +-1 +2 /no/such/file-$$\$"

HEADER='^TIME\(ms\)'
run_tool execsnoop.bt -- exec /bin/echo hello sonde
want execsnoop.bt '^[0-9]+ +[0-9]+ +/bin/echo hello sonde$'

HEADER='^PID +COMM +SIG'
"$SONDE" "$tools/killsnoop.bt" > "$work/out" 2> "$work/err" &
TRACER=$!
wait_for "$work/out" "$HEADER" || die "killsnoop did not start"
sleep 0.2 & victim=$!
kill -0 $victim
sleep 0.3
tracer_stop
cp "$work/out" "$work/killsnoop.bt.out"
want killsnoop.bt "^[0-9]+ +[^ ]+ +0 +$victim +0$"

# block I/O that reaches the disk: direct writes of a file here
HEADER='^Tracing block device'
trigger_start syscalls getppid 1
"$SONDE" "$tools/biolatency.bt" > "$work/out" 2> "$work/err" &
TRACER=$!
wait_for "$work/out" "$HEADER" || die "biolatency did not start: $(cat "$work/err")"
dd if=/dev/zero of="$work/blk" bs=64k count=16 oflag=direct,sync status=none
trigger_go
tracer_stop
cp "$work/out" "$work/biolatency.bt.out"
want biolatency.bt '^@usecs: $'
want biolatency.bt '^\[[0-9KM]+, [0-9KM]+\) +[0-9]+ \|@+ *\|$'

HEADER='^Tracing CPU scheduler'
run_tool runqlat.bt -- sleep 20 1000
want runqlat.bt '^@usecs: $'

# profile, for 2 seconds, while a process of ours spins
HEADER=
ln -sf "$(command -v bash)" "$work/$TRIG_COMM"	# its comm: ours alone
"$work/$TRIG_COMM" -c 'end=$((SECONDS + 3)); while ((SECONDS < end)); do :; done' & spin=$!
"$SONDE" "$tools/profile.bt" 2 > "$work/profile.bt.out" 2> "$work/err" || { echo "profile.bt failed: $(cat "$work/err")"; fail=1; }
kill $spin 2>/dev/null
want profile.bt "^, $TRIG_COMM\]: [0-9]+$"
want profile.bt '^Sampling at 99 Hertz'
exit $fail
