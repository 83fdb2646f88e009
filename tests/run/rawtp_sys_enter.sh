#!/bin/bash
# rawtracepoint:sys_enter: arg1 is the syscall number, so the trigger's
# 9 getppid() calls count exactly 9; arg0 (the pt_regs pointer) is a
# kernel address.  The alias rt: and rawtracepoint:sys_exit (arg1 is
# the return value: getpid returns the pid) work too.  Between the start
# signal and its exit, the trigger makes only these calls (and its
# final exit_group), so @nr has exactly three keys.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace syscalls getppid 9 getpid 2 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
rawtracepoint:sys_enter /pid == $1 && arg1 == $2/ { @getppid = count(); }
rawtracepoint:sys_enter /pid == $1/ {
	$n = arg1 == $2 ? "getppid" : arg1 == $3 ? "getpid" : arg1 == $4 ? "exit_group" : "other";
	@nr[$n] = count();
	@kernel[arg0 > 0xffff000000000000] = count();
}
rt:sys_exit /pid == $1 && arg1 == $1/ { @ret_is_pid[probe] = count(); }' @TRIG@ "$NR_getppid" "$NR_getpid" "$NR_exit_group"
expect "Attaching 4 probes...
ready


@getppid: 9
@kernel[1]: 12
@nr[exit_group]: 1
@nr[getpid]: 2
@nr[getppid]: 9
@ret_is_pid[rawtracepoint:sys_exit]: 2"
stderr_clean
