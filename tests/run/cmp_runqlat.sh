#!/bin/bash
# runqlat.bt, one of bpftrace 0.17's tools, runs unchanged: its
# #include <linux/sched.h> is a kernel header sonde does not need, and
# TASK_RUNNING one of the constants it knows.  It prints what bpftrace
# prints (the histogram's rows depend on the machine's scheduling, so
# they are compared as ROWS).  bpftrace runs a copy whose #include is
# "#define TASK_RUNNING 0": it needs kernel headers for the #include,
# which this host lacks.
. "$SONDE_ROOT/tests/lib/trace.sh"
tool=/usr/sbin/runqlat.bt
[[ -r $tool ]] || { echo "no $tool (Debian's bpftrace package)"; exit 77; }

# runqlat NAME CMD...: run CMD until it traced half a second, then stop
# it with SIGINT; its filtered output in $work/NAME
runqlat() {
	local name=$1 pid
	shift
	: > "$work/$name.raw"
	"$@" > "$work/$name.raw" 2> "$work/$name.err" &
	pid=$!
	wait_for "$work/$name.raw" '^Tracing CPU scheduler' ||
		die "$name did not start: $(cat "$work/$name.err")"
	sleep 0.5	# this sleep's wakeup is one of the events
	kill -INT $pid
	wait $pid || die "$name exited $?: $(cat "$work/$name.err")"
	hist_rows < "$work/$name.raw" > "$work/$name"
}

runqlat sonde "$SONDE" "$tool"
[[ -s $work/sonde.err ]] && die "sonde wrote to stderr: $(cat "$work/sonde.err")"
expect "Attaching 5 probes...
Tracing CPU scheduler... Hit Ctrl-C to end.



@usecs: 
ROWS
" "$work/sonde"
have_bpftrace || exit 0
sed 's|^#include <linux/sched.h>|#define TASK_RUNNING 0|' "$tool" > "$work/runqlat.bt"
runqlat bpftrace bpftrace "$work/runqlat.bt"
diff -u --label sonde --label bpftrace "$work/sonde" "$work/bpftrace" ||
	die "sonde's output differs from bpftrace's"
