#!/bin/bash
# A command BEGIN's system() starts runs once every probe is enabled,
# as dtrace's consumer runs it: proc:::exec-success sees its exec (the
# shell's, then echo's).
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$(timeout 20 "$SONDE" dtrace -q -w -n '
BEGIN { mypid = pid; system("/bin/echo TEST a b c "); }
proc:::exec-success /progenyof(mypid) && curpsinfo->pr_psargs == "/bin/echo TEST a b c"/ {
	printf("[%s]\n", curpsinfo->pr_psargs);
	exit(0);
}
tick-5s { exit(1); }' 2>&1 | grep -v '^$')
same "system() seen" "TEST a b c
[/bin/echo TEST a b c]" "$out"
exit 0
