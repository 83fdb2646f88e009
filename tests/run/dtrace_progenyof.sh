#!/bin/bash
# progenyof(pid): whether the current process is pid or descends from
# it: the command's shell and its children are, sonde itself is not.
. "$SONDE_ROOT/tests/usdt/lib.sh"
out=$(timeout 20 "$SONDE" dtrace -q -c '/bin/sh -c "/bin/echo hi; true"' -n '
syscall::write:entry /progenyof($target)/ { printf("%s %d\n", execname, progenyof($target)); }
syscall::write:entry /execname == "sonde" && !progenyof($target) && !said++/ { printf("sonde is no descendant\n"); }' 2>&1 | grep -v '^$' | sort)
same "progenyof" "echo 1
hi
sonde is no descendant" "$out"
exit 0
