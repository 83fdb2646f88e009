#!/bin/bash
# Of several attach points of one block, one that names nothing (a
# tracepoint, a function the library lacks) is skipped with a warning,
# as bpftrace skips it; the others attach and fire.  When none of the
# block's attach points exists, that is an error.
set -u
. "$SONDE_ROOT/tests/lib/trace.sh"
prog syscalls
"$SONDE" -c "$PROGS/syscalls getppid 1" -e '
t:syscalls:sys_enter_getppid, t:syscalls:nonsense /pid == cpid/ { printf("hit %s\n", probe); }
uprobe:libc:no_such_function_here, uprobe:libc:syscall /pid == cpid && arg0 == 110/ { printf("hit %s\n", func); }' \
	> "$work/out" 2> "$work/err" || die "sonde failed: $(cat "$work/err")"
grep -qx 'hit tracepoint:syscalls:sys_enter_getppid' "$work/out" || die "no tracepoint hit: $(cat "$work/out")"
grep -qx 'hit syscall' "$work/out" || die "no uprobe hit: $(cat "$work/out")"
grep -q '^-e:2:31: warning: tracepoint not found: syscalls:nonsense; skipped$' "$work/err" ||
	die "no warning for the tracepoint: $(cat "$work/err")"
grep -q '^-e:3:1: warning: uprobe: function no_such_function_here not found in .*libc.so.6; skipped$' "$work/err" ||
	die "no warning for the function: $(cat "$work/err")"
grep -q 'Attaching 2 probes' "$work/out" || die "not 2 probes: $(cat "$work/out")"

# none exists: an error for each, nothing attached
if "$SONDE" -e 't:syscalls:nonsense, uprobe:libc:no_such_function_here { }' > "$work/out" 2> "$work/err"; then
	die "a block of missing probes ran"
fi
grep -q 'error\[E_PROBE\]: tracepoint not found: syscalls:nonsense' "$work/err" || die "$(cat "$work/err")"
grep -q 'error\[E_PROBE\]: uprobe: function no_such_function_here not found' "$work/err" || die "$(cat "$work/err")"
exit 0
