#!/bin/bash
# -k: memory reads that fail are counted per place in the script and
# reported at exit, with the place and a caret; the probes of a wildcard
# share a place.  The trigger makes 3 getppid and 2 getpid calls, and
# every str(8) fails (address 8 is never mapped).  Without -k nothing
# is counted or said.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog='BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid, tracepoint:syscalls:sys_enter_getpid /pid == $1/ { @[str(8)] = count(); }'
trace syscalls getppid 3 getpid 2 -- "$SONDE" -k -e "$prog" @TRIG@
expect "Attaching 3 probes...
ready


@[]: 5"
want='-e:2:93: warning: bpf_probe_read_str() failed 5 times (last: Bad address); what it read is empty or zero'
[[ $(head -1 "$work/err") == "$want" ]] ||
	die "stderr: want '$want', got: $(cat "$work/err")"
[[ $(sed -n 3p "$work/err") == *' ^~~~~~' ]] || die "no caret: $(cat "$work/err")"

trace syscalls getppid 3 -- "$SONDE" -e "$prog" @TRIG@
expect "Attaching 3 probes...
ready


@[]: 3"
stderr_clean
