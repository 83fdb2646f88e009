#!/bin/bash
# join(args->argv) on execve: the command line of -c's command (run
# without a shell, as bpftrace runs it: its one execve), with
# the default separator and with one of our own.  The command's own
# output ("one two three") races with sonde's, so it is checked apart.
out=$("$SONDE" -q -c '/bin/echo one two three' -e 'tracepoint:syscalls:sys_enter_execve /pid == cpid/ { join(args->argv); join(args->argv, ","); }' 2>&1)
want=$(printf '/bin/echo one two three\n/bin/echo,one,two,three')
got=$(grep -vx 'one two three' <<< "$out" | sed '/^$/d')
[[ $got == "$want" ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
grep -qx 'one two three' <<< "$out" || { echo "no output of the command: $out"; exit 1; }
