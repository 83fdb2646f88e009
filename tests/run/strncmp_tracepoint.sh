#!/bin/bash
# strncmp() on strings that arrive at run time: the comm of a trigger
# named so that no other process is (equal and unequal, in a predicate
# and in a value), a tracepoint's path read by str(), and a string
# variable against a positional parameter.
. "$SONDE_ROOT/tests/lib/trace.sh"
f=$work/strncmp-file
touch "$f"
TRIG_COMM=strncmp-trig trace syscalls getppid 3 open "$f" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /!strncmp(comm, "strncmp-trig", 16)/ {
	@n = count();
	@eq[strncmp(comm, "strncmp-trig", 12), strncmp(comm, "strncmp-trix", 12),
	    strncmp(comm, "strncmp-trix", 11), strncmp("strncmp", comm, 7)] = count();
}
tracepoint:syscalls:sys_enter_openat /pid == $1/ {
	$p = str(args->filename);
	printf("%d %d %d %d\n", strncmp($p, $2, 100), strncmp(str(args->filename), $2, 100),
	       strncmp($p, "/", 1), strncmp($p, "/nowhere", 8));
}' @TRIG@ "$f"
expect "Attaching 3 probes...
ready
0 0 0 1


@eq[0, 1, 0, 0]: 3
@n: 3"
stderr_clean
