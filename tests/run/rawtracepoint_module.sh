#!/bin/bash
# rawtracepoint:MODULE:NAME (bpftrace 0.26): vmlinux (or a wildcard
# matching it) is the kernel's own raw tracepoints, named
# rawtracepoint:vmlinux:NAME, with args typed by BTF; a loaded module's
# come from its BTF; a middle field that is neither stays a tracefs
# category, as before; neither module nor category is an error.
set -u
die() { echo "$*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1

out=$("$SONDE" --dialect=0.26 -c /bin/true -e 'rawtracepoint:vmlinu*:sched_process_exi* /args.p.pid == cpid/ { printf("%s %s %s\n", probe, probetype, comm); }' 2>&1)
[[ $out == $'Attached 1 probe\nrawtracepoint:vmlinux:sched_process_exit rawtracepoint true\n\n' ||
   $out == $'Attached 1 probe\nrawtracepoint:vmlinux:sched_process_exit rawtracepoint true' ]] || die "vmlinux wildcard: $out"

out=$("$SONDE" --dialect=0.26 -c /bin/true -e 'rawtracepoint:vmlinux:sched_process_exit /((struct task_struct *)arg0)->pid == cpid/ { printf("%s %d\n", probe, args.p.pid == cpid); }' 2>&1)
[[ $out == *$'\nrawtracepoint:vmlinux:sched_process_exit 1'* ]] || die "vmlinux: $out"

# a category, as before: named without it
out=$("$SONDE" --dialect=0.26 -c /bin/true -e 'rawtracepoint:sched:sched_process_exit /args.p.pid == cpid/ { printf("%s\n", probe); }' 2>&1)
[[ $out == *$'\nrawtracepoint:sched_process_exit'* ]] || die "category: $out"

# -l with a module: vmlinux's; the syscalls' ftrace events are no raw
# tracepoints
[[ $("$SONDE" -l 'rawtracepoint:vmlinu*:sched_process_ex*') == $'rawtracepoint:vmlinux:sched_process_exec\nrawtracepoint:vmlinux:sched_process_exit' ]] || die "-l module"
[[ $("$SONDE" -l 'rt:sys_e*') == $'rawtracepoint:sys_enter\nrawtracepoint:sys_exit' ]] || die "-l sys_e*: $("$SONDE" -l 'rt:sys_e*')"
[[ -z $("$SONDE" -l 'rawtracepoint:nonsense:sys_e*') ]] || die "-l nonsense"

# -l of a script names them as they attach
[[ $("$SONDE" -l -e 'rawtracepoint:vmlinux:sched_process_exit { }') == rawtracepoint:vmlinux:sched_process_exit ]] || die "-l"

"$SONDE" --dialect=0.26 -e 'rawtracepoint:nonsense:sys_exit { }' 2> err && die "nonsense ran"
grep -q "raw tracepoint not found: nonsense:sys_exit (nonsense is neither a loaded module nor a tracepoint category)" err || die "nonsense: $(cat err)"
"$SONDE" --dialect=0.26 -e 'rawtracepoint:vmlinux:nonsense { }' 2> err && die "vmlinux:nonsense ran"
grep -q "raw tracepoint not found: vmlinux:nonsense" err || die "vmlinux:nonsense: $(cat err)"
exit 0
