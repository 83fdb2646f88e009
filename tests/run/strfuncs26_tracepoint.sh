#!/bin/bash
# strlen(), strcap(), strstr() and memcmp() (bpftrace 0.26) on strings
# that arrive at run time: a tracepoint's char pointer read directly
# by strlen(), and the path read by str() and searched.
. "$SONDE_ROOT/tests/lib/trace.sh"
f=$work/a-needle-file
touch "$f"
n=${#f}
trace syscalls open "$f" open /etc/hostname -- "$SONDE" --dialect=0.26 -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_openat /pid == $1/ {
	$p = str(args.filename);
	printf("%d %d %d %d\n", strlen(args.filename) == strlen($p),
	       strcap(args.filename) == strlen($p), strstr($p, "needle") - strlen($p),
	       memcmp($p, "/etc/hostname", 14));
	@[strlen(args.filename)] = count();
}' @TRIG@
expect "ready
1 1 -11 $(( $(printf %d "'${f:1:1}") - $(printf %d "'e") ))
1 1 -14 0


@[13]: 1
@[$n]: 1"
stderr_clean
