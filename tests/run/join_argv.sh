#!/bin/bash
# join(args->argv) on execve: the command line of -c's command, with
# the default separator and with one of our own.
out=$("$SONDE" -q -c '/bin/echo one two three' -e 'tracepoint:syscalls:sys_enter_execve /pid == cpid && comm == "sh"/ { join(args->argv); join(args->argv, ","); }' 2>&1)
want=$(printf '/bin/echo one two three\n/bin/echo,one,two,three\none two three')
[[ "$out" == "$want"* ]] || { echo "got:"; echo "$out"; echo "want:"; echo "$want"; exit 1; }
