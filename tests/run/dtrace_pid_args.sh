#!/bin/bash
# sonde dtrace's pid provider: arg6..arg9 of a function's entry are the
# arguments the x86-64 ABI passes on the stack; every probe is enabled
# before any fires (a clause that raise()s the signal whose handler a
# pid probe watches, as dtrace-utils' pid tests do); pidNNNN of a
# process started just before sonde names its program, not the shell
# that had not exec'd it yet.
. "$SONDE_ROOT/tests/lib/trace.sh"
[[ $(uname -m) == x86_64 ]] || { echo "the stack arguments are x86-64's"; exit 77; }
prog raised
cd "$PROGS" || exit 1

out=$(timeout 20 "$SONDE" dtrace -q -w -c ./raised -n '
syscall::getpid:return /pid == $target/ { raise(SIGUSR1); }
pid$target:a.out:caught:entry {
	printf("%d %d %d %d %d %d %d %d %d %d\n", arg0, arg1, arg2, arg3,
	    arg4, arg5, arg6, arg7, arg8, arg9);
	exit(0);
}' 2>&1)
same "pid args after a raise()" "0 1 2 3 4 5 6 7 8 9" "$out"

# a process started in the background just before sonde: $! is the
# shell's fork, which execs ./raised an instant later
bash -c 'exec ./raised' &
bg=$!
out=$(timeout 20 "$SONDE" dtrace -q -w -n '
syscall::getpid:return /pid == '"$bg"'/ { raise(SIGUSR1); }
pid'"$bg"':a.out:caught:return { printf("%s returned %d\n", probefunc, arg1); exit(0); }' 2>&1)
wait "$bg"
same "pid of a fresh process" "caught returned 45" "$out"
exit 0
