#!/bin/bash
# tracefs is not mounted at boot here: sonde mounts it itself when a
# tracepoint needs it (-v says so, once), and the probes then work.
# The test unmounts /sys/kernel/tracing first to prove it; sonde leaves
# tracefs mounted, as it found the system before the test.
. "$SONDE_ROOT/tests/lib/trace.sh"
t=/sys/kernel/tracing
unmount() {
	local i
	for ((i = 0; i < 10; i++)); do
		grep -q " $t tracefs " /proc/mounts || return 0
		umount "$t" 2>/dev/null || return 1
	done
	return 1
}
grep -q ' /sys/kernel/debug debugfs ' /proc/mounts &&
	{ echo "debugfs is mounted: tracefs is reachable through it"; exit 77; }
unmount || { echo "cannot unmount $t (busy?)"; exit 77; }

# 1. -v: the mount is announced on stderr, and events arrive.
trace syscalls getppid 4 -- "$SONDE" -v -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ { @ = count(); }' @TRIG@
expect "Attaching 2 probes...
ready


@: 4"
n=$(grep -c '^sonde: mounted tracefs at /sys/kernel/tracing$' "$work/err")
(( n == 1 )) || die "want one 'mounted tracefs' line on stderr, got $n: $(cat "$work/err")"
grep -q " $t tracefs " /proc/mounts || die "tracefs is not mounted after sonde ran"

# 2. Already mounted: not mounted again, nothing said.
"$SONDE" -v --dump=bpf -e 't:syscalls:sys_enter_getppid { @ = count(); }' > /dev/null 2> "$work/err2" ||
	die "--dump=bpf failed: $(cat "$work/err2")"
grep -q 'mounted tracefs' "$work/err2" && die "mounted again: $(cat "$work/err2")"
(( $(grep -c " $t tracefs " /proc/mounts) == 1 )) || die "tracefs mounted twice: $(grep tracefs /proc/mounts)"

# 3. Raw tracepoints and wildcards also find tracefs by themselves.
unmount || die "cannot unmount $t again"
trace syscalls getppid 3 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
rawtracepoint:sys_enter /pid == $1 && arg1 == $2/ { @raw = count(); }' @TRIG@ "$NR_getppid"
expect "Attaching 2 probes...
ready


@raw: 3"
stderr_clean
unmount || die "cannot unmount $t again"
"$SONDE" --dump=bpf -e 't:sched:sched_sw*tch { @ = count(); }' > /dev/null 2> "$work/err" ||
	die "--dump=bpf with a wildcard failed after umount: $(cat "$work/err")"
stderr_clean
grep -q " $t tracefs " /proc/mounts || die "tracefs is not mounted after sonde ran"
exit 0
