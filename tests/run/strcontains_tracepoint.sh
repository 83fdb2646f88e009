#!/bin/bash
# strcontains() on strings that arrive at run time: a tracepoint's path
# read by str() against literals, the trigger's comm, and a positional
# parameter; compared with bpftrace 0.17's output (which runs out of
# stack with a few more calls in one probe).
. "$SONDE_ROOT/tests/lib/trace.sh"
f=$work/strcontains-needle-file
touch "$f"
TRIG_COMM=needle compare_bpftrace cat syscalls open "$f" open /etc/hostname open /etc/hostname -- '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_openat /pid == $1/ {
	printf("%d %d %d\n", strcontains(str(args->filename), "needle"),
	       strcontains(str(args->filename), comm), strcontains(str(args->filename), str($2)));
	@[strcontains(str(args->filename), "host")] = count();
}' @TRIG@ file
expect "Attaching 2 probes...
ready
1 1 1
0 0 0
0 0 0


@[0]: 1
@[1]: 2" "$work/sonde"
