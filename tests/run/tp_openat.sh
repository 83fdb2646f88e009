#!/bin/bash
# sys_enter_openat: str(args->filename) reads the user-space path the
# trigger passed, args->dfd is AT_FDCWD (-100: an int in an 8-byte
# slot), args->flags O_RDONLY; one event per openat, none missed.
. "$SONDE_ROOT/tests/lib/trace.sh"
mkdir -p "$work/d"
a=$work/d/first-file
b=$work/d/a-second-file-whose-name-is-longer-than-sixty-four-bytes.txt
touch "$a" "$b"
trace syscalls open "$a" open "$b" open "$a" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_openat /pid == $1/ {
	printf("%s dfd=%d flags=%d\n", str(args->filename), args->dfd, args.flags);
	@[str(args->filename)] = count();
	@dfd[args->dfd] = count();
}
tracepoint:syscalls:sys_exit_openat /pid == $1/ { @ok[args->ret >= 3] = count(); }' @TRIG@
# str() keeps BPFTRACE_STRLEN - 1 = 63 bytes of the long name.
b63=${b:0:63}
expect "Attaching 3 probes...
ready
$a dfd=-100 flags=0
$b63 dfd=-100 flags=0
$a dfd=-100 flags=0


@[$b63]: 1
@[$a]: 2
@dfd[-100]: 3
@ok[1]: 3"
stderr_clean
