#!/bin/bash
# The read latency one-liner (@start[tid] on entry, hist on return,
# delete) prints what bpftrace 0.17 prints; the bucket rows depend on
# timing, so each run of rows is compared as one line.  The emptied
# @start prints as a blank line, in both.
. "$SONDE_ROOT/tests/lib/trace.sh"
compare_bpftrace hist_rows syscalls read 20 4096 -- '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_read /pid == $1/ { @start[tid] = nsecs; }
tracepoint:syscalls:sys_exit_read /@start[tid]/ {
	@ns[comm] = hist(nsecs - @start[tid]);
	@us = hist((nsecs - @start[tid]) / 1000);
	@reads = count();
	delete(@start[tid]);
}' @TRIG@
expect "Attaching 3 probes...
ready


@ns[syscalls]: 
ROWS

@reads: 20

@us: 
ROWS
" "$work/sonde"
