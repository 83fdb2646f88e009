#!/bin/bash
# Of several attach points of one block, one that names nothing (a
# tracepoint, a function the library lacks) is skipped with a warning
# under --dialect=0.17 (the runner's), as bpftrace 0.17 skips it; the
# others attach and fire.  Today's bpftrace makes it an error unless
# missing_probes says warn or ignore; D too (-Z allows it).  When none
# of the block's attach points exists, that is an error.
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

# today's bpftrace (missing_probes defaults to "error"): an error, a
# warning with missing_probes = "warn", nothing with "ignore"
if "$SONDE" --dialect=0.26 -e 'uprobe:libc:syscall, uprobe:libc:no_such_function_here { exit(); }' > "$work/out" 2> "$work/err"; then
	die "0.26: a missing function was skipped"
fi
grep -q '^-e:1:22: error\[E_PROBE\]: uprobe: function no_such_function_here not found in .*libc.so.6$' "$work/err" ||
	die "0.26: $(cat "$work/err")"
"$SONDE" --dialect=0.26 -c "$PROGS/syscalls getppid 1" -e 'config = { missing_probes = "warn" }
uprobe:libc:syscall, uprobe:libc:no_such_function_here /pid == cpid/ { printf("hit\n"); exit(); }' > "$work/out" 2> "$work/err" ||
	die "0.26 warn: $(cat "$work/err")"
grep -q 'warning: uprobe: function no_such_function_here not found in .*; skipped$' "$work/err" || die "0.26 warn: $(cat "$work/err")"
"$SONDE" --dialect=0.26 -c "$PROGS/syscalls getppid 1" -e 'config = { missing_probes = "ignore" }
uprobe:libc:syscall, uprobe:libc:no_such_function_here /pid == cpid/ { printf("hit\n"); exit(); }' > "$work/out" 2> "$work/err" ||
	die "0.26 ignore: $(cat "$work/err")"
grep -q 'no_such_function_here' "$work/err" && die "0.26 ignore said it: $(cat "$work/err")"
grep -qx 'hit' "$work/out" || die "0.26 ignore: no hit: $(cat "$work/out")"
# a tracepoint the kernel lacks among them: a warning, as bpftrace says
"$SONDE" --dialect=0.26 -c "$PROGS/syscalls getppid 1" -e 't:syscalls:sys_enter_getppid, t:syscalls:nonsense /pid == cpid/ { printf("hit\n"); exit(); }' > "$work/out" 2> "$work/err" ||
	die "0.26 tracepoint: $(cat "$work/err")"
grep -q 'warning: tracepoint not found: syscalls:nonsense; skipped$' "$work/err" || die "0.26 tracepoint: $(cat "$work/err")"
grep -qx 'hit' "$work/out" || die "0.26 tracepoint: no hit: $(cat "$work/out")"
# a wildcard among them that matches nothing: a warning
"$SONDE" --dialect=0.26 -c "$PROGS/syscalls getppid 1" -e 'uprobe:libc:syscall, uprobe:libc:no_such_fn_zz* /pid == cpid/ { printf("hit\n"); exit(); }' > "$work/out" 2> "$work/err" ||
	die "0.26 wildcard: $(cat "$work/err")"
grep -q 'warning: uprobe: no function of .* matches no_such_fn_zz\*; skipped$' "$work/err" || die "0.26 wildcard: $(cat "$work/err")"
# D: dtrace's words, and -Z lets the description match nothing
"$SONDE" dtrace -n 'syscall::getppid:entry, syscall::nosuch:entry { exit(0); }' > "$work/out" 2> "$work/err" &&
	die "D: a description that matches nothing was skipped"
grep -q 'probe description syscall::nosuch:entry does not match any probes' "$work/err" || die "D: $(cat "$work/err")"

# none exists: an error for each, nothing attached
if "$SONDE" -e 't:syscalls:nonsense, uprobe:libc:no_such_function_here { }' > "$work/out" 2> "$work/err"; then
	die "a block of missing probes ran"
fi
grep -q 'error\[E_PROBE\]: tracepoint not found: syscalls:nonsense' "$work/err" || die "$(cat "$work/err")"
grep -q 'error\[E_PROBE\]: uprobe: function no_such_function_here not found' "$work/err" || die "$(cat "$work/err")"
exit 0
