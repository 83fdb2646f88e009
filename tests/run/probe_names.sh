#!/bin/bash
# `probe` is the full name of the probe that fired, whatever alias the
# script used: one block on six probes of five kinds, filtered to a
# trigger that spins 300 ms and then faults in 50 pages with one mmap.
. "$SONDE_ROOT/tests/lib/trace.sh"
trace load spin 300 touch 50 -- "$SONDE" -e '
BEGIN { printf("ready\n"); }
t:syscalls:sys_enter_mmap, rt:sys_enter, p:hz:99, profile:ms:10,
software:page-faults:1, s:cpu-clock:1000000
/pid == $1/
{
	@[probe] = count();
	if (probe == "tracepoint:syscalls:sys_enter_mmap") { @mmap = count(); }
}' @TRIG@
stderr_clean
expect "Attaching 7 probes...
ready" <(head -n 2 "$work/out")
keys=$(sed -n 's/^@\[\(.*\)\]: [0-9]*$/\1/p' "$work/out" | sort)
expect "profile:hz:99
profile:ms:10
rawtracepoint:sys_enter
software:cpu-clock:1000000
software:page-faults:1
tracepoint:syscalls:sys_enter_mmap" <(echo "$keys")
grep -qx '@\[tracepoint:syscalls:sys_enter_mmap\]: 1' "$work/out" ||
	die "want one mmap: $(cat "$work/out")"
grep -qx '@mmap: 1' "$work/out" || die "probe == \"...\" failed: $(cat "$work/out")"
exit 0
