#!/bin/bash
# -c runs a simple command itself, as bpftrace does: one execve, its
# words split with quotes as a shell splits them; a command that is not
# found is an error before anything runs; shell syntax goes to /bin/sh.
. "$SONDE_ROOT/tests/lib/trace.sh"
cd "$work" || exit 1
"$SONDE" -q -e 'tracepoint:syscalls:sys_enter_execve /pid == cpid/ { join(args.argv, "|"); }' \
	-c "/bin/echo 'a b' \"c d\" e\\ f" > out 2> err || die "exit $?: $(cat err)"
grep -qx '/bin/echo|a b|c d|e f' out || die "argv: $(cat out)"
[[ $(grep -c '|' out) == 1 ]] || die "more than one execve: $(cat out)"
"$SONDE" -q -e 'BEGIN { printf("not run\n"); }' -c 'no-such-command-here x' > out 2> err && die "a missing command ran"
[[ $(cat err) == "sonde: cannot run 'no-such-command-here': No such file or directory" ]] || die "missing: $(cat err)"
[[ ! -s out ]] || die "BEGIN ran: $(cat out)"
"$SONDE" -q -e 'END { printf("end\n"); }' -c 'echo piped | cat > piped.txt' > out 2> err || die "shell: $(cat err)"
[[ $(cat piped.txt) == piped ]] || die "the shell command did not run"
echo ok
