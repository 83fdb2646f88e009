#!/bin/bash
# sched:sched_process_exec: str(args->filename) reads a __data_loc
# string (its offset and length are in the record); the trigger execs
# itself through a symlink, so filename is the link and comm its name.
# args->pid and args->old_pid are pid_t (int) fields.
. "$SONDE_ROOT/tests/lib/trace.sh"
prog syscalls
link=$work/exec-me
ln -s "$PROGS/syscalls" "$link"
trace syscalls exec "$link" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:sched:sched_process_exec /pid == $1/ {
	printf("%s comm=%s pid=%d old=%d\n", str(args->filename), comm,
	       args->pid == $1, args->old_pid == $1);
	@[str(args->filename)] = count();
}
t:sched:sched_process_exec /args->pid == $1/ { @n = count(); }' @TRIG@
expect "Attaching 3 probes...
ready
$link comm=exec-me pid=1 old=1


@[$link]: 1
@n: 1"
stderr_clean

# BPFTRACE_STRLEN and str(x, n) bound the __data_loc string too.
BPFTRACE_STRLEN=8 trace syscalls exec "$link" -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:sched:sched_process_exec /pid == $1/ {
	printf("[%s] [%s] [%s]\n", str(args->filename), str(args->filename, 5), args->filename);
}' @TRIG@
expect "Attaching 2 probes...
ready
[${link:0:7}] [${link:0:5}] [${link:0:7}]

"
stderr_clean
