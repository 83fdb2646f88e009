# A kernel function tracefs does not list (available_filter_functions:
# what ftrace may trace) can still take a kprobe: sonde finds a plain
# name in kallsyms too, as bpftrace does.  Debian's 6.1 lists no
# __x64_sys_* wrapper; id calls getuid.
. ./lib
grep -q "^__x64_sys_getuid\$" /sys/kernel/tracing/available_filter_functions &&
	skip "this kernel lists __x64_sys_getuid"
grep -q " __x64_sys_getuid\$" /proc/kallsyms || skip "no __x64_sys_getuid in kallsyms"
trace "id -u" 'kprobe:__x64_sys_getuid /pid == cpid/ { @ = count(); }'
grep -q '^@: [1-9]' "$work/out" || die "no getuid counted: $(show)"
stderr_clean
# a wildcard still takes tracefs's list alone, and a name in neither
# is an error
"$SONDE" -e 'kprobe:no_such_function_here { }' > "$work/out" 2>&1 && die "accepted: $(cat "$work/out")"
grep -q "kernel function no_such_function_here not found" "$work/out" || die "$(cat "$work/out")"
exit 0
