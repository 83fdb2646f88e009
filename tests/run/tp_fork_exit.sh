#!/bin/bash
# sched:sched_process_fork has two __data_loc strings (parent_comm and
# child_comm on this kernel; char[16] on older ones) and pid_t fields;
# sched:sched_process_exit has a char[16] comm.  The trigger forks 3
# children that exit at once, then exits itself.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls fork 3 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
tracepoint:sched:sched_process_fork /args->parent_pid == $1/ {
	printf("fork %s -> %s %d\n", str(args->parent_comm), args->child_comm,
	       args->child_pid != args->parent_pid && args->child_pid > 0);
	@children[args->child_pid] = 1;
}
tracepoint:sched:sched_process_exit /@children[args->pid] || args->pid == $1/ {
	@exit[args->comm, args->pid == $1 ? "parent" : "child"] = count();
}' @TRIG@
stderr_clean
sed -i '/^@children\[/d' "$work/out"
expect "Attaching 3 probes...
ready
fork syscalls -> syscalls 1
fork syscalls -> syscalls 1
fork syscalls -> syscalls 1


@exit[syscalls, parent]: 1
@exit[syscalls, child]: 3"
