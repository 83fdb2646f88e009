#!/bin/bash
# An array field of a tracepoint's record (raw_syscalls:sys_enter's
# unsigned long args[6]): indexed with a constant and a variable, copied
# into a variable and a map, printed whole, compared.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls read 2 512 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:raw_syscalls:sys_enter /pid == $1 && args->id == 0/ {
	$i = 2;
	$a = args->args;
	printf("%d %d %d %d\n", args->args[2], args->args[$i], $a[2], $a == args->args);
	@[args->args[2]] = count();
	@last = args->args[2];
}' @TRIG@
expect "Attaching 2 probes...
ready
512 512 512 1
512 512 512 1


@[512]: 2
@last: 512"
stderr_clean
