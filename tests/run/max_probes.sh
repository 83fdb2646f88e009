#!/bin/bash
# BPFTRACE_MAX_PROBES and BPFTRACE_MAX_BPF_PROGS (512 each by default,
# as in bpftrace 0.17): a script with more probes or programs is
# refused before anything is loaded, in bpftrace's words; at the limit
# it runs.  sys_enter_getp* names 6 tracepoints here (getpeername,
# getpgid, getpgrp, getpid, getppid, getpriority), plus BEGIN: 7, each
# its own program with --no-feature syscall_mux (merged, the six are
# one program on raw_syscalls and still six probes).
set -u
fail=0
prog='tracepoint:syscalls:sys_enter_getp* { @ = count(); } BEGIN { printf("ran\n"); exit(); }'
n=$(( $(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_getp* 2>/dev/null | wc -l) + 1 ))
(( n > 2 )) || { "$SONDE" -l 'tracepoint:syscalls:sys_enter_getp*' > /dev/null; n=$(( $(ls -d /sys/kernel/tracing/events/syscalls/sys_enter_getp* | wc -l) + 1 )); }
run() {	# WANT-STATUS WANT-STDERR ENV...
	local rc want_rc=$1 want=$2 got
	shift 2
	got=$(env "$@" "$SONDE" -q --no-feature syscall_mux -e "$prog" 2>&1 >/dev/null)
	rc=$?
	[[ $rc == "$want_rc" && $got == "$want" ]] ||
		{ echo "$*: status $rc, stderr '$got'; want $want_rc, '$want'"; fail=1; }
}
run 1 "sonde: Can't attach to $n probes because it exceeds the current limit of $((n - 1)) probes.
You can increase the limit through the BPFTRACE_MAX_PROBES environment variable, but BE CAREFUL since a high number of probes attached can cause your system to crash." BPFTRACE_MAX_PROBES=$((n - 1))
run 0 "" BPFTRACE_MAX_PROBES=$n
run 1 "sonde: Your program is trying to generate $n BPF programs, which exceeds the current limit of 2.
You can increase the limit through the BPFTRACE_MAX_BPF_PROGS environment variable." BPFTRACE_MAX_BPF_PROGS=2
run 0 "" BPFTRACE_MAX_BPF_PROGS=$n
run 1 "sonde: BPFTRACE_MAX_PROBES=0 is not a number in 1..1073741824" BPFTRACE_MAX_PROBES=0
run 1 "sonde: BPFTRACE_MAX_BPF_PROGS=many is not a number in 1..1073741824" BPFTRACE_MAX_BPF_PROGS=many
# the default: 512 probes are too few for every syscall tracepoint (722 here)
all=$(ls -d /sys/kernel/tracing/events/syscalls/sys_*_* | wc -l)
if (( all > 511 )); then
	got=$("$SONDE" -q -e 'tracepoint:syscalls:sys_* { @ = count(); } BEGIN { exit(); }' 2>&1 >/dev/null)
	[[ $got == "sonde: Can't attach to $((all + 1)) probes because it exceeds the current limit of 512 probes."* ]] ||
		{ echo "default: $got"; fail=1; }
fi
# merged, the programs are two: under a limit of 2
got=$(BPFTRACE_MAX_BPF_PROGS=2 "$SONDE" -q -e "$prog" 2>&1 >/dev/null) ||
	{ echo "merged, BPFTRACE_MAX_BPF_PROGS=2: $got"; fail=1; }
exit $fail
